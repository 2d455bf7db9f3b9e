/**
 * Plain share links for the `share_providers` setting (SPEC §3 "Sharing"):
 * each provider's public share address with the visit's link and title, no
 * provider script loaded. Unknown providers are skipped. Pure, unit-tested.
 */

export const SHARE_PROVIDERS = ['email', 'whatsapp', 'facebook', 'twitter', 'linkedin', 'telegram', 'facebook_messenger', 'pinterest', 'reddit'] as const;
export type ShareProvider = (typeof SHARE_PROVIDERS)[number];

export interface ShareLink {
  provider: ShareProvider;
  href: string;
  /** bootstrap-icons class. */
  icon: string;
  /** The provider's name (a brand, the same in every language). */
  name: string;
}

const e = encodeURIComponent;

const BUILD: Record<ShareProvider, { icon: string; name: string; href(url: string, title: string): string }> = {
  email: { icon: 'bi-envelope', name: 'E-mail', href: (url, title) => `mailto:?subject=${e(title)}&body=${e(`${title}\n${url}`)}` },
  whatsapp: { icon: 'bi-whatsapp', name: 'WhatsApp', href: (url, title) => `https://api.whatsapp.com/send?text=${e(`${title} ${url}`)}` },
  facebook: { icon: 'bi-facebook', name: 'Facebook', href: (url) => `https://www.facebook.com/sharer/sharer.php?u=${e(url)}` },
  twitter: { icon: 'bi-twitter-x', name: 'X (Twitter)', href: (url, title) => `https://twitter.com/intent/tweet?url=${e(url)}&text=${e(title)}` },
  linkedin: { icon: 'bi-linkedin', name: 'LinkedIn', href: (url) => `https://www.linkedin.com/sharing/share-offsite/?url=${e(url)}` },
  telegram: { icon: 'bi-telegram', name: 'Telegram', href: (url, title) => `https://t.me/share/url?url=${e(url)}&text=${e(title)}` },
  facebook_messenger: { icon: 'bi-messenger', name: 'Messenger', href: (url) => `fb-messenger://share/?link=${e(url)}` },
  pinterest: { icon: 'bi-pinterest', name: 'Pinterest', href: (url, title) => `https://pinterest.com/pin/create/button/?url=${e(url)}&description=${e(title)}` },
  reddit: { icon: 'bi-reddit', name: 'Reddit', href: (url, title) => `https://www.reddit.com/submit?url=${e(url)}&title=${e(title)}` },
};

const isProvider = (p: string): p is ShareProvider => (SHARE_PROVIDERS as readonly string[]).includes(p);

/** The share links of the enabled providers, in the settings' order, each once. */
export function shareLinks(providers: readonly string[] | null | undefined, url: string, title: string): ShareLink[] {
  const seen = new Set<string>();
  const out: ShareLink[] = [];
  for (const raw of providers ?? []) {
    const p = String(raw).trim().toLowerCase();
    if (!isProvider(p) || seen.has(p)) continue;
    seen.add(p);
    const b = BUILD[p];
    out.push({ provider: p, href: b.href(url, title), icon: b.icon, name: b.name });
  }
  return out;
}

/** The public viewer address of a visit (SPEC §2 /viewer/{code}/{room?}/{poi?}). */
export function viewerPath(code: string, room?: number | null, poi?: number | null): string {
  let p = `/viewer/${encodeURIComponent(code)}`;
  if (room) p += `/${room}`;
  if (room && poi) p += `/${poi}`;
  return p;
}
