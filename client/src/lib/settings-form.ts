import { z } from 'zod';
import {
  MESSAGES,
  PROFILE_FIELDS,
  SECRET_PLACEHOLDER,
  SECRET_SETTING_KEYS,
  SETTINGS_DEFAULTS,
  SETTING_RULES,
  settingsUpdateSchema,
  type ProfileField,
  type SettingKey,
  type Settings,
} from '@sitewalk/proto';
import { setField, type ChangeState } from './changed-fields';
import { tk } from './i18n-keys';

/**
 * The settings screen (SPEC §3 "Application settings") described as data:
 * which setting sits in which section, with which control, label and hint;
 * the form values (numbers held as the typed text), the PUT /settings body of
 * the changed keys, and what to fix before saving: proto's settingsUpdateSchema
 * is the rule (the server checks the same), this module only puts each of its
 * findings under its setting in a person's words. Free of React so it is
 * unit-tested on its own.
 */

export interface Choice {
  value: string;
  /** Translation key. */
  label: string;
}

export type SettingControl =
  | { type: 'switch' }
  | { type: 'text'; input?: 'text' | 'url' | 'email'; placeholder?: string }
  | { type: 'textarea'; rows?: number }
  | { type: 'number'; min: number; max: number; /** Smallest step (0.01 for a percentage); whole numbers when absent. */ step?: number }
  | { type: 'color' }
  | { type: 'secret' }
  | { type: 'select'; options: readonly Choice[] }
  | { type: 'timezone' }
  | { type: 'multi'; options: readonly Choice[] };

export interface SettingField {
  key: SettingKey;
  /** Translation key of the label. */
  label: string;
  /** Translation key of a line under the control. */
  hint?: string;
  control: SettingControl;
  /** Grid width on wide screens (the whole row by default). */
  width?: 'half' | 'third' | 'full';
}

export interface SettingBlock {
  /** Translation key of the block's heading. */
  heading?: string;
  fields: readonly SettingField[];
}

export type SectionId =
  | 'branding'
  | 'mail'
  | 'registration'
  | 'profile'
  | 'notifications'
  | 'security'
  | 'social'
  | 'sharing'
  | 'map'
  | 'realtime'
  | 'storage'
  | 'integration'
  | 'payment'
  | 'bank';

export interface SettingsSection {
  id: SectionId;
  /** Translation key of the tab. */
  label: string;
  /** bootstrap-icons class. */
  icon: string;
  /** Translation key of the sentence under the heading. */
  intro?: string;
  blocks: readonly SettingBlock[];
}

const sw = (key: SettingKey, label: string, hint?: string): SettingField => ({ key, label, hint, control: { type: 'switch' } });
const text = (key: SettingKey, label: string, hint?: string, width?: SettingField['width']): SettingField => ({
  key,
  label,
  hint,
  control: { type: 'text' },
  width,
});
const url = (key: SettingKey, label: string, hint?: string, width?: SettingField['width']): SettingField => ({
  key,
  label,
  hint,
  control: { type: 'text', input: 'url', placeholder: 'https://' },
  width,
});
const email = (key: SettingKey, label: string, hint?: string, width?: SettingField['width']): SettingField => ({
  key,
  label,
  hint,
  control: { type: 'text', input: 'email' },
  width,
});
const secret = (key: SettingKey, label: string, width?: SettingField['width']): SettingField => ({
  key,
  label,
  hint: tk('Kept as it is unless you type a new one; empty it to remove it.'),
  control: { type: 'secret' },
  width,
});
/** The range proto's rule gives a number setting: the control's min and max, and the numbers its message names. */
function numberRange(key: SettingKey): { min: number; max: number } {
  const rule = SETTING_RULES[key];
  if (!(rule instanceof z.ZodNumber) || rule.minValue === null || rule.maxValue === null) throw new Error(`${key} has no range in proto's SETTING_RULES`);
  return { min: rule.minValue, max: rule.maxValue };
}
const port = (key: SettingKey, label: string, width: SettingField['width'] = 'third'): SettingField => ({
  key,
  label,
  control: { type: 'number', ...numberRange(key) },
  width,
});
const area = (key: SettingKey, label: string, hint?: string, rows = 4): SettingField => ({ key, label, hint, control: { type: 'textarea', rows } });

/** The share targets of SPEC §3 "Sharing", in the spec's order. */
/** aws_s3_type: empty keeps files on the server's disk. */
export const S3_TYPES: readonly Choice[] = [
  { value: '', label: tk('Local disk') },
  { value: 'aws', label: tk('Amazon S3') },
  { value: 'r2', label: tk('Cloudflare R2') },
  { value: 'custom', label: tk('Other S3-compatible (MinIO, Wasabi, B2…)') },
];

export const SHARE_PROVIDERS: readonly Choice[] = [
  { value: 'email', label: tk('E-mail') },
  { value: 'whatsapp', label: tk('WhatsApp') },
  { value: 'facebook', label: tk('Facebook') },
  { value: 'twitter', label: tk('X (Twitter)') },
  { value: 'linkedin', label: tk('LinkedIn') },
  { value: 'telegram', label: tk('Telegram') },
  { value: 'facebook_messenger', label: tk('Facebook Messenger') },
  { value: 'pinterest', label: tk('Pinterest') },
  { value: 'reddit', label: tk('Reddit') },
];

/** The mail server's connection security, as the mailer understands it. */
export const SMTP_SECURITY: readonly Choice[] = [
  { value: 'tls', label: tk('STARTTLS (usually port 587)') },
  { value: 'ssl', label: tk('SSL/TLS from the start (usually port 465)') },
  { value: 'none', label: tk('None (trusted local relay only)') },
];

/** The labels of the profile fields' rows, in SPEC §3 order. */
export const PROFILE_FIELD_ROWS: readonly ProfileField[] = PROFILE_FIELDS;

export const SETTINGS_SECTIONS: readonly SettingsSection[] = [
  {
    id: 'branding',
    label: tk('Branding'),
    icon: 'bi-palette',
    intro: tk('The name, colours, pictures and links people see on every page.'),
    blocks: [
      {
        heading: tk('Identity'),
        fields: [
          text('name', tk('Site name'), tk('Shown in the sidebar, the page titles and the e-mails.'), 'half'),
          text('version', tk('Version'), tk('Shown in the footer.'), 'half'),
          text('website_name', tk('Website name'), undefined, 'half'),
          url('website_url', tk('Website address'), undefined, 'half'),
          url('help_url', tk('Help page address'), tk('Opened by Help in the user menu.')),
        ],
      },
      {
        heading: tk('Look'),
        fields: [
          { key: 'theme_color', label: tk('Theme colour'), hint: tk('Colours the sidebar, buttons and links.'), control: { type: 'color' }, width: 'half' },
          sw('dark_mode', tk('Offer dark mode'), tk('Shows the dark-mode switch in the top bar.')),
          text('font_backend', tk('Font'), tk('A font family name, such as Nunito.'), 'half'),
          text('font_provider', tk('Font provider'), tk('Where the font comes from, such as system.'), 'half'),
          url('logo', tk('Logo address'), tk('Address of an image.'), 'half'),
          url('small_logo', tk('Small logo address'), tk('Shown in the sidebar, at most 30 px high and 120 px wide.'), 'half'),
          url('background', tk('Background picture address'), undefined, 'half'),
          url('background_reg', tk('Registration background picture address'), undefined, 'half'),
        ],
      },
      {
        heading: tk('Language and time'),
        fields: [
          sw('languages_enabled', tk('Let people choose the language'), tk('Shows the language switcher in the top bar.')),
          { key: 'timezone', label: tk('Time zone'), control: { type: 'timezone' }, width: 'half' },
          area('announcement', tk('Announcement'), tk('Shown in a bar at the top of every page until a person dismisses it. Leave empty for none.'), 2),
        ],
      },
      {
        heading: tk('Footer links'),
        fields: [
          text('footer_link_1', tk('Footer link 1 text'), undefined, 'half'),
          url('footer_value_1', tk('Footer link 1 address'), undefined, 'half'),
          text('footer_link_2', tk('Footer link 2 text'), undefined, 'half'),
          url('footer_value_2', tk('Footer link 2 address'), undefined, 'half'),
          text('footer_link_3', tk('Footer link 3 text'), undefined, 'half'),
          url('footer_value_3', tk('Footer link 3 address'), undefined, 'half'),
        ],
      },
    ],
  },
  {
    id: 'mail',
    label: tk('Mail server'),
    icon: 'bi-envelope-at',
    intro: tk('Password recovery and e-mail notifications need a working mail server.'),
    blocks: [
      {
        heading: tk('Connection'),
        fields: [
          { key: 'smtp_server', label: tk('SMTP server'), control: { type: 'text', placeholder: 'smtp.example.com' }, width: 'half' },
          port('smtp_port', tk('Port'), 'third'),
          { key: 'smtp_secure', label: tk('Security'), control: { type: 'select', options: SMTP_SECURITY }, width: 'half' },
          sw('smtp_auth', tk('The server needs a user name and password')),
          text('smtp_username', tk('SMTP user name'), undefined, 'half'),
          secret('smtp_password', tk('SMTP password'), 'half'),
        ],
      },
      {
        heading: tk('Sender and recipients'),
        fields: [
          email('smtp_from_email', tk('Sender address'), undefined, 'half'),
          text('smtp_from_name', tk('Sender name'), undefined, 'half'),
          email('contact_email', tk('Contact address'), tk('Where people can write to you.'), 'half'),
          email('notify_email', tk('Address for administrator notices'), tk('Receives the notices chosen under Notifications, such as new registrations.'), 'half'),
        ],
      },
    ],
  },
  {
    id: 'registration',
    label: tk('Registration and legal'),
    icon: 'bi-person-plus',
    blocks: [
      {
        heading: tk('Registration'),
        fields: [
          sw('enable_registration', tk('People may register themselves'), tk('Opens the sign-up page (/register).')),
          sw('validate_email', tk('New accounts confirm their e-mail address'), tk('The account waits until its activation link is opened. Needs a working mail server.')),
          sw('enable_wizard', tk('Offer the onboarding tour'), tk('Shows the tour button in the top bar and starts the tour for new users.')),
          area('furl_blacklist', tk('Reserved words'), tk('Comma-separated words no project code may be.'), 2),
        ],
      },
      {
        heading: tk('Legal'),
        fields: [
          area('terms_and_conditions', tk('Terms and Conditions'), tk('An address starting with http opens in a new tab from the footer; otherwise the text is kept here.')),
          area('privacy_policy', tk('Privacy Policy'), tk('An address starting with http opens in a new tab from the footer; otherwise the text is kept here.')),
          area('cookie_policy', tk('Cookie policy')),
          sw('cookie_consent', tk('Ask for cookie consent'), tk('Adds Cookie Preferences to the footer.')),
        ],
      },
    ],
  },
  {
    id: 'profile',
    label: tk('Profile fields'),
    icon: 'bi-person-vcard',
    intro: tk('Which fields people see in their profile, and which they must fill in before they can use {site}.'),
    blocks: [],
  },
  {
    id: 'notifications',
    label: tk('Notifications'),
    icon: 'bi-bell',
    intro: tk('What the administrators are told about.'),
    blocks: [
      {
        fields: [
          sw('notify_registrations', tk('A person registered')),
          sw('notify_useradd', tk('A user was added')),
          sw('notify_project_create', tk('A project was created')),
          sw('notify_vt_create', tk('A visit was created')),
          sw('notify_plan_changes', tk('A plan was changed')),
          sw('notify_plan_cancels', tk('A plan was cancelled')),
          sw('notify_plan_expiring', tk('A plan is about to expire')),
          sw('notify_plan_expires', tk('A plan expired')),
        ],
      },
    ],
  },
  {
    id: 'security',
    label: tk('Security'),
    icon: 'bi-shield-lock',
    blocks: [
      {
        heading: tk('Sign-in'),
        fields: [
          sw('captcha_login', tk('Captcha on sign-in'), tk('Every sign-in solves a self-hosted captcha (nothing is sent to a third party). Without it, an address asks for the captcha only after a few failed sign-ins.')),
          sw('captcha_register', tk('Captcha on registration'), tk('Registering an account solves the same captcha.')),
          sw('2fa_enable', tk('Two-factor authentication'), tk('Every account signs in with a code from an authenticator app after the password; an account without one sets it up at its next sign-in. Sessions already open carry on. Accounts that have it keep it when this is switched off.')),
        ],
      },
      {
        heading: tk('Maintenance'),
        fields: [
          sw('maintenance_backend', tk('Maintenance mode for the app')),
          sw('maintenance_viewer', tk('Maintenance mode for the public viewer')),
          text('maintenance_ip', tk('Addresses still allowed during maintenance'), tk('Comma-separated IP addresses.')),
        ],
      },
    ],
  },
  {
    id: 'social',
    label: tk('Social login'),
    icon: 'bi-people',
    blocks: [
      {
        heading: tk('Google'),
        fields: [
          sw('social_google_enable', tk('Sign in with Google')),
          text('social_google_id', tk('Client ID'), undefined, 'half'),
          secret('social_google_secret', tk('Client secret'), 'half'),
        ],
      },
      {
        heading: tk('Facebook'),
        fields: [
          sw('social_facebook_enable', tk('Sign in with Facebook')),
          text('social_facebook_id', tk('Client ID'), undefined, 'half'),
          secret('social_facebook_secret', tk('Client secret'), 'half'),
        ],
      },
      {
        heading: tk('X (Twitter)'),
        fields: [
          sw('social_twitter_enable', tk('Sign in with X (Twitter)')),
          text('social_twitter_id', tk('Client ID'), undefined, 'half'),
          secret('social_twitter_secret', tk('Client secret'), 'half'),
        ],
      },
    ],
  },
  {
    id: 'sharing',
    label: tk('Sharing'),
    icon: 'bi-share',
    blocks: [
      {
        fields: [
          {
            key: 'share_providers',
            label: tk('Share buttons'),
            hint: tk('The ways people can share a public visit or showcase.'),
            control: { type: 'multi', options: SHARE_PROVIDERS },
          },
        ],
      },
    ],
  },
  {
    id: 'map',
    label: tk('Map'),
    icon: 'bi-globe2',
    blocks: [
      {
        fields: [
          url('leaflet_street_basemap', tk('Street map tiles address'), tk('A tile address where z, x and y stand for the zoom and the tile, as Leaflet expects.'), 'half'),
          text('leaflet_street_subdomain', tk('Street map subdomains'), tk('Comma-separated, such as a,b,c.'), 'half'),
          url('leaflet_satellite_basemap', tk('Satellite map tiles address'), tk('A tile address where z, x and y stand for the zoom and the tile, as Leaflet expects.'), 'half'),
          text('leaflet_satellite_subdomain', tk('Satellite map subdomains'), tk('Comma-separated, such as a,b,c.'), 'half'),
          { key: 'maxzoom', label: tk('Maximum zoom'), control: { type: 'number', ...numberRange('maxzoom') }, width: 'third' },
        ],
      },
    ],
  },
  {
    id: 'realtime',
    label: tk('Real-time'),
    icon: 'bi-broadcast',
    intro: tk('Servers for live video calls during remote visits.'),
    blocks: [
      {
        heading: tk('PeerJS'),
        fields: [
          text('peerjs_host', tk('Host'), undefined, 'third'),
          port('peerjs_port', tk('Port')),
          text('peerjs_path', tk('Path'), undefined, 'third'),
        ],
      },
      {
        heading: tk('TURN'),
        fields: [
          text('turn_host', tk('Host'), undefined, 'half'),
          port('turn_port', tk('Port')),
          text('turn_username', tk('User name'), undefined, 'half'),
          secret('turn_password', tk('Password'), 'half'),
        ],
      },
      {
        heading: tk('Jitsi'),
        fields: [text('jitsi_domain', tk('Jitsi domain'), undefined, 'half')],
      },
    ],
  },
  {
    id: 'storage',
    label: tk('Storage'),
    icon: 'bi-hdd-stack',
    intro: tk('An S3-compatible bucket for files. Leave the type empty to keep files on the server’s disk.'),
    blocks: [
      {
        fields: [
          { key: 'aws_s3_type', label: tk('Storage type'), control: { type: 'select', options: S3_TYPES }, width: 'half' },
          sw('aws_s3_vt_auto', tk('Store new files in the bucket'), tk('Test the storage first; copy the files already stored with npm run storage:copy (README, "Storage").')),
          url('aws_s3_endpoint', tk('Endpoint URL (custom)'), undefined, 'half'),
          text('aws_s3_accountid', tk('Account ID'), undefined, 'half'),
          text('aws_s3_region', tk('Region'), undefined, 'half'),
          text('aws_s3_bucket', tk('Bucket'), undefined, 'half'),
          url('aws_s3_custom_domain', tk('Custom domain'), undefined, 'half'),
          secret('aws_s3_key', tk('Access key'), 'half'),
          secret('aws_s3_secret', tk('Secret key'), 'half'),
        ],
      },
    ],
  },
  {
    id: 'integration',
    label: tk('Integration'),
    icon: 'bi-plug',
    blocks: [
      {
        heading: tk('API'),
        fields: [secret('api_key', tk('API key'), 'half')],
      },
      {
        heading: tk('Autodesk'),
        fields: [
          sw('adsk_enable', tk('Let people link their Autodesk account')),
          text('adsk_client', tk('Client ID'), undefined, 'half'),
          secret('adsk_secret', tk('Client secret'), 'half'),
        ],
      },
    ],
  },
  {
    id: 'payment',
    label: tk('Payment'),
    icon: 'bi-credit-card',
    blocks: [
      {
        heading: tk('PayPal'),
        fields: [
          sw('paypal_enabled', tk('Accept card payments with PayPal')),
          sw('paypal_live', tk('Live mode'), tk('Off: the PayPal sandbox, for tests.')),
          text('paypal_client_id', tk('Client ID'), undefined, 'half'),
          secret('paypal_client_secret', tk('Client secret'), 'half'),
          text('id_product_paypal', tk('PayPal product ID'), undefined, 'half'),
        ],
      },
      {
        heading: tk('Invoices'),
        fields: [
          { key: 'tax_rate', label: tk('Tax rate (%)'), hint: tk('Added to every plan price; 0 for none. Up to two decimals.'), control: { type: 'number', ...numberRange('tax_rate'), step: 0.01 }, width: 'third' },
          text('invoice_seller_name', tk('Seller name'), tk('Printed on every invoice; the site name when empty.'), 'half'),
          text('invoice_seller_tax_id', tk('Seller tax id'), undefined, 'half'),
          area('invoice_seller_address', tk('Seller address'), tk('One line per line of the address.'), 3),
        ],
      },
    ],
  },
  {
    id: 'bank',
    label: tk('Bank transfer'),
    icon: 'bi-bank',
    intro: tk('Shown to people who pay by bank transfer.'),
    blocks: [
      {
        fields: [
          text('bank_name', tk('Bank name'), undefined, 'half'),
          text('bank_account_name', tk('Account holder'), undefined, 'half'),
          text('bank_account_number', tk('Account number'), undefined, 'half'),
          text('bank_swift_bic', tk('SWIFT/BIC'), undefined, 'half'),
          text('bank_iban', tk('IBAN'), undefined, 'half'),
          area('bank_address', tk('Bank address'), undefined, 2),
        ],
      },
    ],
  },
];

/** The enable and mandatory flags of one profile field. */
export const profileFlagKeys = (f: ProfileField) => ({
  enable: `${f}_enable` as SettingKey,
  mandatory: `${f}_mandatory` as SettingKey,
});

/** The settings each section shows (the profile section's are its flag switches). */
export function sectionKeys(section: SettingsSection): SettingKey[] {
  if (section.id === 'profile') return PROFILE_FIELD_ROWS.flatMap((f) => Object.values(profileFlagKeys(f)));
  return section.blocks.flatMap((b) => b.fields.map((f) => f.key));
}

/** Settings the screen shows but never sends: smtp_valid belongs to the server's mail check. */
export const SERVER_OWNED_KEYS: readonly SettingKey[] = ['smtp_valid'];

const SECTION_OF = new Map<SettingKey, SectionId>(SETTINGS_SECTIONS.flatMap((s) => sectionKeys(s).map((k) => [k, s.id] as const)));
/** The section a setting is edited in. */
export const sectionOf = (key: SettingKey): SectionId | undefined => SECTION_OF.get(key);

const FIELD_OF = new Map<SettingKey, SettingField>(SETTINGS_SECTIONS.flatMap((s) => s.blocks.flatMap((b) => b.fields.map((f) => [f.key, f] as const))));
export const settingField = (key: SettingKey): SettingField | undefined => FIELD_OF.get(key);

const SECRET_SET = new Set<string>(SECRET_SETTING_KEYS);
export const isSecretSetting = (key: SettingKey) => SECRET_SET.has(key);

/** Settings whose value is a number (held as the typed text while editing). */
export const NUMBER_KEYS = (Object.keys(SETTINGS_DEFAULTS) as SettingKey[]).filter((k) => typeof SETTINGS_DEFAULTS[k] === 'number');
const NUMBER_SET = new Set<SettingKey>(NUMBER_KEYS);

export type SettingValue = string | boolean | string[];
export type SettingsFormValues = Record<SettingKey, SettingValue>;

/** The form's values for settings as GET /settings gives them (secrets stay the placeholder). */
export function settingsFormValues(s: Partial<Settings>): SettingsFormValues {
  const merged = { ...SETTINGS_DEFAULTS, ...s } as Record<SettingKey, unknown>;
  const out: Record<string, SettingValue> = {};
  for (const k of Object.keys(SETTINGS_DEFAULTS) as SettingKey[]) {
    const v = merged[k];
    if (NUMBER_SET.has(k)) out[k] = v === null || v === undefined ? '' : String(v);
    else if (Array.isArray(v)) out[k] = v.map(String);
    else if (typeof v === 'boolean') out[k] = v;
    else out[k] = v === null || v === undefined ? '' : String(v);
  }
  return out as SettingsFormValues;
}

/** A number typed by a person ('' or anything else unreadable is NaN). */
const parseNumber = (s: string): number => (s.trim() === '' ? Number.NaN : Number(s.trim().replace(',', '.')));

/**
 * The PUT /settings body for the changed values: numbers as numbers, single
 * line texts trimmed, the colour in lower case. smtp_valid is never sent, and
 * a secret still showing the placeholder is left out (the server keeps it).
 */
export function settingsPatch(changes: Partial<SettingsFormValues>): Partial<Settings> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(changes) as [SettingKey, SettingValue][]) {
    if (value === undefined || SERVER_OWNED_KEYS.includes(key)) continue;
    if (isSecretSetting(key) && value === SECRET_PLACEHOLDER) continue;
    if (NUMBER_SET.has(key)) out[key] = parseNumber(String(value));
    else if (key === 'theme_color') out[key] = String(value).trim().toLowerCase();
    else if (typeof value === 'string' && !isSecretSetting(key) && settingField(key)?.control.type !== 'textarea') out[key] = value.trim();
    else out[key] = value;
  }
  return out as Partial<Settings>;
}

/** The theme colour's shape (proto's), for the colour swatch. */
export { HEX_COLOUR } from '@sitewalk/proto';

export type SettingsErrors = Partial<Record<SettingKey, string | null>>;

/**
 * How the form says proto's finding about `key` (a translation key): a number
 * with the range of its control ({min} and {max}), an e-mail address as the
 * profile says it, anything else in proto's own words (the server's message,
 * translated like every message it sends).
 */
function findingText(key: SettingKey, sent: unknown, protoMessage: string): string {
  const control = settingField(key)?.control;
  if (control?.type === 'number') {
    if (typeof sent !== 'number' || Number.isNaN(sent)) return tk('Enter a number.');
    return control.step ? tk('Enter a number from {min} to {max} with at most two decimals.') : tk('Enter a whole number from {min} to {max}.');
  }
  if (control?.type === 'text' && control.input === 'email') return MESSAGES.invalidEmail;
  return protoMessage;
}

/**
 * What to fix before saving (messages are translation keys, with {min} and
 * {max} for a range): proto's settingsUpdateSchema run on every value as it
 * would be sent, one message per setting; and the settings a switch turned on
 * requires, which are the form's own rules.
 */
export function settingsFieldErrors(v: SettingsFormValues): SettingsErrors {
  const e: SettingsErrors = {};
  const body = settingsPatch(v) as Record<string, unknown>;
  const checked = settingsUpdateSchema.safeParse(body);
  for (const issue of checked.error?.issues ?? []) {
    const key = issue.path[0] as SettingKey | undefined;
    if (typeof key === 'string' && !e[key]) e[key] = findingText(key, body[key], issue.message);
  }
  if (v.smtp_auth === true && !String(v.smtp_username).trim()) e.smtp_username = tk('Enter the user name the mail server expects, or turn off its authentication.');
  // The server refuses the same (proto ADSK_NEEDS_CLIENT_MESSAGE); said here first, next to the field.
  if (v.adsk_enable === true && !String(v.adsk_client).trim()) e.adsk_client = tk('Enter the Client ID of your Autodesk app before letting people link their accounts.');
  return e;
}

/** Settings whose check depends on a switch: turning the switch on makes them required. */
const REQUIRED_BY: Partial<Record<SettingKey, SettingKey[]>> = { smtp_username: ['smtp_auth'], adsk_client: ['adsk_enable'] };

/**
 * The errors that stop a save: those of the settings being changed, and of
 * settings a changed switch now requires (turning linking on with no client
 * id is refused even though the client id itself did not change). A stored
 * value nobody touches never blocks.
 */
export function blockingErrors(found: SettingsErrors, changed: ReadonlySet<SettingKey> | ReadonlySet<string>): SettingsErrors {
  const blocking: SettingsErrors = {};
  for (const k of Object.keys(found) as SettingKey[]) {
    if (found[k] && (changed.has(k) || (REQUIRED_BY[k] ?? []).some((s) => changed.has(s)))) blocking[k] = found[k];
  }
  return blocking;
}

/** The sections holding at least one of the given keys, in screen order. */
export function sectionsWith(keys: Iterable<SettingKey>): SectionId[] {
  const wanted = new Set<SectionId>();
  for (const k of keys) {
    const s = sectionOf(k);
    if (s) wanted.add(s);
  }
  return SETTINGS_SECTIONS.map((s) => s.id).filter((id) => wanted.has(id));
}

/**
 * Turns a profile field's switch: a mandatory field is also shown, and a
 * field that is no longer shown is no longer mandatory, so people are never
 * asked for a field they cannot see.
 */
export function setProfileFlag(
  state: ChangeState<SettingsFormValues>,
  field: ProfileField,
  flag: 'enable' | 'mandatory',
  on: boolean,
): ChangeState<SettingsFormValues> {
  const keys = profileFlagKeys(field);
  let next = setField(state, keys[flag], on);
  if (flag === 'mandatory' && on) next = setField(next, keys.enable, true);
  if (flag === 'enable' && !on) next = setField(next, keys.mandatory, false);
  return next;
}

/** The time zones to pick from: the browser's list, with the current value kept even if unknown to it. */
export function timezoneChoices(current: string): string[] {
  let zones: string[] = [];
  try {
    zones = Intl.supportedValuesOf('timeZone');
  } catch {
    zones = [];
  }
  const all = new Set([...zones, 'UTC', SETTINGS_DEFAULTS.timezone]);
  if (current) all.add(current);
  return [...all].sort();
}

/** The SPEC §8 form toasts for the 'Settings' entity (formMessages('Settings'), written out for the translation check). */
export const SETTINGS_MESSAGES = {
  updated: tk('Settings updated successfully!'),
  updateFailed: tk('Failed to update Settings'),
  loadFailed: tk('Error loading Settings data'),
} as const;

/** PUT /settings answers when the change touched the mail server. */
export const SMTP_CHECK_QUEUED = tk('Settings saved. The mail server is being checked; you will be notified of the result.');
export const SMTP_CHECK_NOT_STARTED = tk('Settings saved, but the mail server check could not be started. Save again to retry.');
