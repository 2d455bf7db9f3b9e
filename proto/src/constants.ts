/** Business constants and limits of SPEC §9. */
export const CONSTANTS = {
  apiTimeoutMs: 30_000,
  tokenRefreshThresholdMs: 5 * 60_000,
  authCheckIntervalMs: 5 * 60_000,
  refreshAttempts: 3,
  refreshDelayMs: 1_000,
  broadcastEntryLifetimeMs: 500,
  userCacheLifetimeMs: 60 * 60_000,
  settingsCacheLifetimeMs: 60 * 60_000,
  toastFormMs: 3_000,
  toastDefaultMs: 5_000,
  pageTransitionMs: 300,
  logoutModalCloseDelayMs: 300,
  sidebarCollapseWidthPx: 768,
  tourStepDelayMs: 500,
  tourOverlayPadding: 10,
  tourOverlayRadius: 5,
  logoMaxHeightPx: 30,
  logoMaxWidthPx: 120,
  dropdownUnreadMax: 5,
  translationRetries: 5,
  translationRetryBaseMs: 350,
  translationParallelMax: 10,
  defaultLanguage: 'en',
  themeShadeCount: 4,
  themeShadeStep: 0.1,
} as const;

export const TOAST_KINDS = ['success', 'error', 'warning', 'info'] as const;
export type ToastKind = (typeof TOAST_KINDS)[number];

export const SPINNER_SIZES = ['sm', 'md', 'lg'] as const;
export type SpinnerSize = (typeof SPINNER_SIZES)[number];

export const LANGUAGES = [
  { code: 'en', name: 'English', flag: 'gb', direction: 'ltr' },
  { code: 'ar', name: 'العربية', flag: 'jo', direction: 'rtl' },
] as const;
export type LanguageCode = (typeof LANGUAGES)[number]['code'];
export const LANGUAGE_CODES = LANGUAGES.map((l) => l.code) as LanguageCode[];

/** Limits on uploads (the spec leaves them open; these are ours). */
export const UPLOAD_LIMITS = {
  imageBytes: 15 * 1024 * 1024,
  imagePixels: 50_000_000,
  pdfBytes: 200 * 1024 * 1024,
  jsonBytes: 1024 * 1024,
} as const;
