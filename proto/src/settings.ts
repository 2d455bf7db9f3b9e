import { z } from 'zod';
import { SITE_API_KEY_MIN_LENGTH } from './api-keys.js';

/**
 * Every application setting of SPEC §3 with its default. Values are strings,
 * booleans, numbers or string lists; the database stores them as JSON.
 */
export const SETTINGS_DEFAULTS = {
  // Branding
  name: 'SiteWalk',
  theme_color: '#2987f2',
  dark_mode: true,
  font_backend: 'Nunito',
  version: '0.1.0',
  logo: '',
  small_logo: '',
  background: '',
  background_reg: '',
  website_url: '',
  website_name: '',
  help_url: '',
  footer_link_1: '',
  footer_value_1: '',
  footer_link_2: '',
  footer_value_2: '',
  footer_link_3: '',
  footer_value_3: '',
  font_provider: 'system',
  timezone: 'Asia/Amman',
  languages_enabled: true,
  announcement: '',
  // Mail server
  smtp_server: '',
  smtp_auth: false,
  smtp_username: '',
  smtp_password: '',
  smtp_secure: 'tls',
  smtp_port: 587,
  smtp_from_email: '',
  smtp_from_name: '',
  smtp_valid: false,
  contact_email: '',
  notify_email: '',
  // Registration and legal
  enable_registration: false,
  terms_and_conditions: '',
  privacy_policy: '',
  cookie_policy: '',
  cookie_consent: false,
  validate_email: false,
  furl_blacklist: 'admin,api,login,register,recover,activate,viewer,showcase,dashboard,settings,static,assets',
  enable_wizard: true,
  // Payment
  paypal_enabled: false,
  paypal_live: false,
  paypal_client_id: '',
  paypal_client_secret: '',
  id_product_paypal: '',
  // Social login
  social_google_enable: false,
  social_google_id: '',
  social_google_secret: '',
  social_facebook_enable: false,
  social_facebook_id: '',
  social_facebook_secret: '',
  social_twitter_enable: false,
  social_twitter_id: '',
  social_twitter_secret: '',
  // Profile fields
  first_name_enable: true,
  first_name_mandatory: true,
  last_name_enable: true,
  last_name_mandatory: false,
  company_enable: true,
  company_mandatory: false,
  tax_id_enable: false,
  tax_id_mandatory: false,
  street_enable: false,
  street_mandatory: false,
  city_enable: true,
  city_mandatory: false,
  postal_code_enable: false,
  postal_code_mandatory: false,
  province_enable: false,
  province_mandatory: false,
  country_enable: true,
  country_mandatory: false,
  tel_enable: true,
  tel_mandatory: false,
  // Real-time
  peerjs_host: '',
  peerjs_port: 9000,
  peerjs_path: '',
  turn_host: '',
  turn_port: 5349,
  turn_username: '',
  turn_password: '',
  jitsi_domain: '',
  // Map
  leaflet_street_basemap: '',
  leaflet_street_subdomain: '',
  leaflet_satellite_basemap: '',
  leaflet_satellite_subdomain: '',
  maxzoom: 20,
  // Notification triggers
  notify_registrations: false,
  notify_useradd: false,
  notify_plan_expires: false,
  notify_plan_expiring: false,
  notify_plan_changes: false,
  notify_plan_cancels: false,
  notify_vt_create: false,
  notify_project_create: false,
  // Security
  captcha_login: false,
  captcha_register: false,
  '2fa_enable': false,
  maintenance_backend: false,
  maintenance_viewer: false,
  maintenance_ip: '',
  // Sharing
  share_providers: ['email', 'whatsapp', 'facebook', 'twitter', 'linkedin', 'telegram', 'facebook_messenger', 'pinterest', 'reddit'] as string[],
  // Storage
  aws_s3_type: '',
  aws_s3_vt_auto: false,
  aws_s3_accountid: '',
  aws_s3_custom_domain: '',
  aws_s3_region: '',
  aws_s3_key: '',
  aws_s3_secret: '',
  aws_s3_bucket: '',
  /** Endpoint URL of a custom S3-compatible server (aws_s3_type "custom"): MinIO, Ceph, Wasabi, Backblaze B2… */
  aws_s3_endpoint: '',
  // Integration
  api_key: '',
  adsk_enable: false,
  adsk_client: '',
  adsk_secret: '',
  // Bank transfer
  bank_name: '',
  bank_account_name: '',
  bank_account_number: '',
  bank_swift_bic: '',
  bank_iban: '',
  bank_address: '',
  // Invoices (the seller on every invoice, and the tax rate in percent; 0 for none)
  tax_rate: 0,
  invoice_seller_name: '',
  invoice_seller_address: '',
  invoice_seller_tax_id: '',
};

export type Settings = typeof SETTINGS_DEFAULTS;
export type SettingKey = keyof Settings;

/** Keys whose values are secrets: never returned in clear by GET /settings. */
export const SECRET_SETTING_KEYS = [
  'smtp_password',
  'paypal_client_secret',
  'social_google_secret',
  'social_facebook_secret',
  'social_twitter_secret',
  'turn_password',
  'aws_s3_key',
  'aws_s3_secret',
  'api_key',
  'adsk_secret',
] as const satisfies readonly SettingKey[];

/**
 * What GET /settings shows in place of a secret that is set. Sending it back
 * in PUT /settings keeps the stored secret (SPEC §3 for adsk_secret).
 */
export const SECRET_PLACEHOLDER = '********';

/** Why account linking to the design cloud cannot be turned on yet (PUT /settings answers it with 400; the settings screen says it first). */
export const ADSK_NEEDS_CLIENT_MESSAGE = 'Enter the Client ID of your Autodesk app before letting people link their accounts.';

/** Keys whose change makes the server re-check the SMTP connection. */
export const SMTP_SETTING_KEYS = [
  'smtp_server',
  'smtp_auth',
  'smtp_username',
  'smtp_password',
  'smtp_secure',
  'smtp_port',
  'smtp_from_email',
] as const satisfies readonly SettingKey[];

export const PROFILE_FIELDS = [
  'first_name',
  'last_name',
  'company',
  'tax_id',
  'street',
  'city',
  'postal_code',
  'province',
  'country',
  'tel',
] as const;
export type ProfileField = (typeof PROFILE_FIELDS)[number];

const valueSchemaFor = (v: unknown): z.ZodTypeAny => {
  if (typeof v === 'boolean') return z.boolean();
  if (typeof v === 'number') return z.number().finite();
  if (Array.isArray(v)) return z.array(z.string().max(200)).max(100);
  return z.string().max(20_000);
};

/** A whole number in a range, with a message that names the setting and the range. */
const wholeNumber = (key: string, min: number, max: number) => {
  const message = `${key} must be a whole number from ${min} to ${max}.`;
  return z.number({ message }).int(message).min(min, message).max(max, message);
};

const isTimeZone = (tz: string) => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
};

/** An e-mail address, or empty for "not set". */
const optionalEmail = (key: string) => z.union([z.literal(''), z.email({ message: `${key} must be an e-mail address.` })], { message: `${key} must be an e-mail address.` });

/** Storage type: empty for the local disk, else the S3 provider's endpoint style. */
const s3TypeSchema = z.enum(['', 'aws', 'r2', 'custom'], { message: 'aws_s3_type must be empty (local disk), aws, r2 or custom.' });
const S3_ENDPOINT_MESSAGE = 'aws_s3_endpoint must be a URL such as https://s3.example.com.';
const s3EndpointSchema = z.union([z.literal(''), z.string().trim().max(500).regex(/^https?:\/\/[^\s/]+(\/[^\s]*)?$/, S3_ENDPOINT_MESSAGE)], { message: S3_ENDPOINT_MESSAGE });
/** A text of the given shape, or empty for "not set", with one message for both. */
const emptyOr = (pattern: RegExp, message: string) => z.string({ message }).trim().regex(new RegExp(`^(?:${pattern.source})?$`), message);
// The names S3 and its look-alikes accept, so a bucket is never switched on with a value no server takes.
const s3RegionSchema = emptyOr(/[a-z0-9][a-z0-9-]{0,48}[a-z0-9]/, 'aws_s3_region must be a region name such as eu-central-1 (or auto for R2).');
const s3BucketSchema = emptyOr(/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]/, 'aws_s3_bucket must be a bucket name: 3 to 63 lower-case letters, digits, dots and dashes.');
const s3AccountIdSchema = emptyOr(/[0-9a-fA-F]{32}/, 'aws_s3_accountid must be the 32-character account id Cloudflare shows.');
const s3CustomDomainSchema = emptyOr(/(?:https?:\/\/)?[A-Za-z0-9.-]{1,253}(?::\d{1,5})?\/?/, 'aws_s3_custom_domain must be a host name such as files.example.com.');

/** A theme colour as settings hold it: '#' and six hex digits. */
export const HEX_COLOUR = /^#[0-9a-fA-F]{6}$/;

/**
 * Settings whose type is narrower than "a number" or "a text": ports, zoom
 * levels, choices, names. Every other setting takes the type of its default.
 */
export const SETTING_RULES: Partial<Record<SettingKey, z.ZodTypeAny>> = {
  name: z.string().trim().min(1, 'The site name cannot be empty.').max(100, 'The site name is too long (at most 100 characters).'),
  theme_color: z.string().regex(HEX_COLOUR, 'The theme colour must be a hex colour like #2987f2.'),
  smtp_port: wholeNumber('smtp_port', 1, 65535),
  peerjs_port: wholeNumber('peerjs_port', 1, 65535),
  turn_port: wholeNumber('turn_port', 1, 65535),
  maxzoom: wholeNumber('maxzoom', 1, 30),
  smtp_secure: z.enum(['tls', 'ssl', 'none'], { message: 'smtp_secure must be one of: tls, ssl, none.' }),
  timezone: z.string().max(100).refine(isTimeZone, { message: 'timezone must be a time zone such as Asia/Amman or UTC.' }),
  smtp_from_email: optionalEmail('smtp_from_email'),
  contact_email: optionalEmail('contact_email'),
  notify_email: optionalEmail('notify_email'),
  tax_rate: z
    .number({ message: 'tax_rate must be a percentage from 0 to 100.' })
    .min(0, 'tax_rate must be a percentage from 0 to 100.')
    .max(100, 'tax_rate must be a percentage from 0 to 100.')
    .refine((v) => Number.isInteger(Math.round(v * 100 * 1e6) / 1e6), 'tax_rate has at most two decimals.'),
  aws_s3_type: s3TypeSchema,
  // The site-wide key of integrations: off when empty; the placeholder keeps the stored one.
  api_key: z
    .string()
    .max(200, 'api_key is at most 200 characters.')
    .refine((v) => v === '' || v === SECRET_PLACEHOLDER || v.length >= SITE_API_KEY_MIN_LENGTH, {
      message: `api_key must be empty (off) or at least ${SITE_API_KEY_MIN_LENGTH} characters, so that it cannot be guessed.`,
    }),
  aws_s3_endpoint: s3EndpointSchema,
  aws_s3_region: s3RegionSchema,
  aws_s3_bucket: s3BucketSchema,
  aws_s3_accountid: s3AccountIdSchema,
  aws_s3_custom_domain: s3CustomDomainSchema,
};

/** PUT /settings body: any subset of known keys, each with its own type. */
export const settingsUpdateSchema = z
  .object(
    Object.fromEntries(
      Object.entries(SETTINGS_DEFAULTS).map(([k, v]) => [k, (SETTING_RULES[k as SettingKey] ?? valueSchemaFor(v)).optional()]),
    ) as { [K in SettingKey]: z.ZodOptional<z.ZodTypeAny> },
  )
  .strict()
  .refine((o) => Object.keys(o).length > 0, { message: 'Give at least one setting to change.' });
export type SettingsUpdate = Partial<Settings>;

/**
 * What GET /settings shows to someone not signed in: only what the sign-in
 * and registration pages, the footer and the public viewer need. The mail
 * server, client ids, storage and payment details stay for signed-in users.
 */
export const PUBLIC_SETTING_KEYS = [
  'name',
  'theme_color',
  'dark_mode',
  'font_backend',
  'version',
  'logo',
  'small_logo',
  'background',
  'background_reg',
  'website_url',
  'website_name',
  'help_url',
  'footer_link_1',
  'footer_value_1',
  'footer_link_2',
  'footer_value_2',
  'footer_link_3',
  'footer_value_3',
  'font_provider',
  'timezone',
  'languages_enabled',
  'announcement',
  'contact_email',
  'enable_registration',
  // The sign-in page offers /recover only when the mail server works (SPEC §2).
  'smtp_valid',
  'terms_and_conditions',
  'privacy_policy',
  'cookie_policy',
  'cookie_consent',
  'validate_email',
  'enable_wizard',
  'social_google_enable',
  'social_facebook_enable',
  'social_twitter_enable',
  ...PROFILE_FIELDS.flatMap((f) => [`${f}_enable`, `${f}_mandatory`] as const),
  'leaflet_street_basemap',
  'leaflet_street_subdomain',
  'leaflet_satellite_basemap',
  'leaflet_satellite_subdomain',
  'maxzoom',
  'captcha_login',
  'captcha_register',
  '2fa_enable',
  'maintenance_backend',
  'maintenance_viewer',
  'share_providers',
  'adsk_enable',
] as const satisfies readonly SettingKey[];

/** The "Storage" settings (SPEC §3), tried by "Test storage" and switched on with aws_s3_vt_auto. */
export const STORAGE_SETTING_KEYS = [
  'aws_s3_type',
  'aws_s3_vt_auto',
  'aws_s3_accountid',
  'aws_s3_custom_domain',
  'aws_s3_region',
  'aws_s3_key',
  'aws_s3_secret',
  'aws_s3_bucket',
  'aws_s3_endpoint',
] as const satisfies readonly SettingKey[];

/**
 * POST /settings/storage-check body: the Storage settings to try, as the form
 * holds them (unsaved); a secret sent as the placeholder, or left out, is the stored one.
 */
export const storageCheckSchema = z
  .object({
    aws_s3_type: s3TypeSchema,
    aws_s3_accountid: s3AccountIdSchema,
    aws_s3_custom_domain: s3CustomDomainSchema,
    aws_s3_region: s3RegionSchema,
    aws_s3_key: z.string().max(500),
    aws_s3_secret: z.string().max(500),
    aws_s3_bucket: s3BucketSchema,
    aws_s3_endpoint: s3EndpointSchema,
  })
  .partial()
  .strict();
export type StorageCheckInput = z.infer<typeof storageCheckSchema>;

export interface StorageCheckResult {
  ok: boolean;
  /** The step that failed (settings, write, read, delete); null when all passed. */
  step: 'settings' | 'write' | 'read' | 'delete' | null;
  message: string;
}
