import type { Resolver } from 'react-hook-form';
import {
  PROFILE_FIELDS,
  newPasswordFormSchema,
  type ProfileField,
  type User,
  type UserCreateRequest,
  type UserCreateResponse,
  type UserUpdateRequest,
} from '@sitewalk/proto';
import { allRules, requestRules, rulesWhen } from '../../components/edit-form/edit-form-model';
import { emailRules, usernameRules } from '../../components/edit-form/account-rules';
import { tk } from '../../lib/i18n-keys';

/**
 * The user edit form of the administrators (/edituser/{id}, 'new' creates
 * one): its values, the checks made before sending, and the POST /users and
 * PUT /users/{id} bodies. Pure, unit-tested.
 */

export type UserLanguage = 'en' | 'ar';

export type UserFormValues = Record<ProfileField, string> & {
  username: string;
  email: string;
  role: string;
  super_admin: boolean;
  active: boolean;
  language: UserLanguage;
  /** Creating only: true sends an invitation by e-mail, false sets the password below. */
  invite: boolean;
  password: string;
  password_confirm: string;
};

/** The roles an administrator gives (administrators are made with the super_admin switch). */
export const ASSIGNABLE_ROLES = ['guest', 'editor', 'viewer'] as const;

export const ROLE_LABELS: Record<string, string> = {
  super_admin: tk('Administrator'),
  guest: tk('Guest'),
  editor: tk('Editor'),
  viewer: tk('Viewer'),
};

/** The role choices of the form: the assignable ones, and the user's own if it is another. */
export const roleChoices = (current: string): string[] =>
  (ASSIGNABLE_ROLES as readonly string[]).includes(current) || !current ? [...ASSIGNABLE_ROLES] : [...ASSIGNABLE_ROLES, current];

const asLanguage = (l: string | undefined): UserLanguage => (l === 'ar' ? 'ar' : 'en');

/** The form's values for a user, or for a new one (invited by e-mail when `invite`). */
export function userFormValues(u: User | null, opts: { invite?: boolean } = {}): UserFormValues {
  const profile = Object.fromEntries(PROFILE_FIELDS.map((f) => [f, u?.[f] ?? ''])) as Record<ProfileField, string>;
  return {
    ...profile,
    username: u?.username ?? '',
    email: u?.email ?? '',
    role: u?.role || 'guest',
    super_admin: u?.super_admin ?? false,
    active: u?.active ?? true,
    language: asLanguage(u?.language),
    invite: u ? false : (opts.invite ?? true),
    password: '',
    password_confirm: '',
  };
}

const trimmed = (v: Partial<UserFormValues>, keys: readonly (keyof UserFormValues)[], out: Record<string, unknown>) => {
  for (const k of keys) if (typeof v[k] === 'string') out[k] = (v[k] as string).trim();
};

const TEXT_KEYS = ['username', 'email', ...PROFILE_FIELDS] as const;

/** POST /users: every value; the password only when not inviting (no password means an invitation). */
export function userCreateRequest(v: UserFormValues): UserCreateRequest {
  const out: Record<string, unknown> = {};
  trimmed(v, TEXT_KEYS, out);
  out.role = v.role;
  out.super_admin = v.super_admin;
  out.language = v.language;
  if (!v.invite) out.password = v.password;
  return out as UserCreateRequest;
}

/** PUT /users/{id}: the changed fields the API accepts (the password has its own call). */
export function userUpdateRequest(changes: Partial<UserFormValues>): UserUpdateRequest {
  const out: Record<string, unknown> = {};
  trimmed(changes, TEXT_KEYS, out);
  for (const k of ['role', 'super_admin', 'active', 'language'] as const) if (changes[k] !== undefined) out[k] = changes[k];
  return out as UserUpdateRequest;
}

/** Proto's username and e-mail rules (an e-mail is required here, as on the profile). */
const accountRules = allRules(usernameRules<UserFormValues>(), emailRules<UserFormValues>());

/** Proto's new-password rules, typed twice. */
const newPasswordRules = requestRules<UserFormValues>((v) => ({ password: v.password, confirm: v.password_confirm }), newPasswordFormSchema, {
  confirm: 'password_confirm',
});

/** What to fix before sending (translation keys). The password is checked only for a new user given one. */
export const userFormRules = (creating: boolean): Resolver<UserFormValues> =>
  creating ? allRules(accountRules, rulesWhen((v) => !v.invite, newPasswordRules)) : accountRules;

/** What happened to a new account, said to the administrator after POST /users. */
export type CreationOutcome = 'password' | 'invited' | 'invitation_failed';

export function creationOutcome(res: Pick<UserCreateResponse, 'invitation_sent'>, invited: boolean): CreationOutcome {
  if (!invited) return 'password';
  return res.invitation_sent ? 'invited' : 'invitation_failed';
}

export const CREATION_NOTICE: Record<CreationOutcome, string> = {
  password: tk('The account is active: {name} can sign in now with the password you chose.'),
  invited: tk('An invitation was sent to {email}. The account stays inactive until {name} opens the link and chooses a password.'),
  invitation_failed: tk('The account was created, but the invitation e-mail could not be queued. To let {name} in, set a password below and turn on Active.'),
};

/** How a user is named in lists and questions: full name, else username. */
export const userDisplayName = (u: Pick<User, 'first_name' | 'last_name' | 'username'>) =>
  `${u.first_name ?? ''} ${u.last_name ?? ''}`.trim() || u.username;

/** The SPEC §8 form messages of the User entity, written out so the translation check finds them. */
export const USER_FORM_TEXTS = [
  tk('Failed to create User'),
  tk('Failed to update User'),
  tk('Failed to delete User'),
  tk('Error loading User data'),
  tk('User created successfully!'),
  tk('User updated successfully!'),
  tk('User deleted successfully!'),
] as const;
