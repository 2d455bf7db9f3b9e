import { z } from 'zod';
import type { PlanInfo, PlanMembersView, PlanSlot } from './plans.js';
import { PROFILE_FIELDS, type ProfileField } from './settings.js';
import type { NotificationPreferences } from './notifications.js';
import { pageQuerySchema, type Page } from './envelope.js';
import { MESSAGES } from './messages.js';

/**
 * Role values a user can be given. super_admin is not among them: it comes
 * only from the super_admin flag (SPEC §6), so no account is an administrator
 * by a role value alone.
 */
export const ROLES = ['guest', 'editor', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

/** The user as the API shows it (SPEC §3 User profile). Never carries secrets. */
export interface User {
  id: number;
  username: string;
  email: string;
  first_name: string;
  last_name: string;
  avatar: string | null;
  cover_image: string | null;
  super_admin: boolean;
  role: string;
  adsk_auth: boolean;
  company: string;
  tax_id: string;
  street: string;
  city: string;
  postal_code: string;
  province: string;
  country: string;
  tel: string;
  language: string;
  active: boolean;
  created_at: string;
}

/**
 * SPEC §6: super_admin when the flag is set, else the role, defaulting to
 * guest. A stored role value 'super_admin' without the flag grants nothing.
 */
export const effectiveRole = (u: Pick<User, 'super_admin' | 'role'> | null | undefined): string => {
  if (!u) return 'guest';
  if (u.super_admin) return 'super_admin';
  return u.role && u.role !== 'super_admin' ? u.role : 'guest';
};

export const usernameSchema = z
  .string()
  .trim()
  .min(3, 'Username must be at least 3 characters.')
  .max(50, 'Username must be at most 50 characters.')
  .regex(/^[A-Za-z0-9._-]+$/, 'Username may use letters, digits, dot, dash and underscore only.');

export const passwordSchema = z
  .string()
  .min(8, 'Password must be at least 8 characters.')
  .max(200, 'Password must be at most 200 characters.');

/** What a form says when a new password and its confirmation differ. */
export const PASSWORDS_DIFFER = 'The passwords do not match.';

/** A new password typed twice (the forms that set one): the password rule, and the two the same. */
export const newPasswordFormSchema = z
  .object({ password: passwordSchema, confirm: z.string() })
  // Said also while the password itself breaks a rule (zod would skip it then), so both messages show at once.
  .refine((v) => v.password === v.confirm, { message: PASSWORDS_DIFFER, path: ['confirm'], when: (p) => typeof (p.value as { confirm?: unknown })?.confirm === 'string' });
export type NewPasswordForm = z.infer<typeof newPasswordFormSchema>;

export const emailSchema = z.string().trim().toLowerCase().email('Invalid email format').max(254);

/** An e-mail a form must have: said to be missing when blank (SPEC §5 'Email is required'), else emailSchema. */
export const requiredEmailSchema = z.string().trim().min(1, MESSAGES.emailRequired).pipe(emailSchema);

const profileFieldSchema = z.string().trim().max(200, 'At most 200 characters.');

export const profileFieldsSchema = z.object(
  Object.fromEntries(PROFILE_FIELDS.map((f) => [f, profileFieldSchema.optional()])) as {
    [K in (typeof PROFILE_FIELDS)[number]]: z.ZodOptional<typeof profileFieldSchema>;
  },
);

/** What a form says of a required field left blank. */
export const FIELD_REQUIRED = 'This field is required.';

/**
 * The profile fields of a form (sign-up, own profile): each as the server
 * checks it, and the `required` ones (those the settings make mandatory)
 * not blank; the first name says so by name (SPEC §5 'First name is required').
 */
export const profileFormSchema = (required: readonly ProfileField[]) =>
  profileFieldsSchema.extend(
    Object.fromEntries(required.map((f) => [f, profileFieldSchema.min(1, f === 'first_name' ? MESSAGES.firstNameRequired : FIELD_REQUIRED)])),
  );

/** PUT /users/{id}: the changed fields only. */
export const userUpdateSchema = profileFieldsSchema
  .extend({
    username: usernameSchema.optional(),
    email: emailSchema.optional(),
    language: z.enum(['en', 'ar']).optional(),
    // Only a super admin may change these; the service enforces it.
    role: z.enum(ROLES).optional(),
    super_admin: z.boolean().optional(),
    active: z.boolean().optional(),
  })
  .strict()
  .refine((o) => Object.keys(o).length > 0, { message: 'Nothing to update.' });

/**
 * POST /users (super admin creates a user). Without a password the account is
 * created inactive and the person gets an invitation link by e-mail, where
 * they choose their username and password.
 */
export const userCreateSchema = profileFieldsSchema
  .extend({
    username: usernameSchema,
    email: emailSchema,
    password: passwordSchema.optional(),
    role: z.enum(ROLES).default('guest'),
    super_admin: z.boolean().default(false),
    language: z.enum(['en', 'ar']).default('en'),
  })
  .strict();
export type UserCreateRequest = z.input<typeof userCreateSchema>;
export type UserUpdateRequest = z.input<typeof userUpdateSchema>;

/** POST /users answer: the user, and whether an invitation mail was queued. */
export interface UserCreateResponse {
  user: User;
  invitation_sent: boolean;
}

/** GET /users query: a page, optionally filtered by a search text. */
export const userListQuerySchema = pageQuerySchema.extend({
  /** Matches username, e-mail, first or last name, case-insensitively. */
  search: z.string().trim().max(100, 'The search text is too long.').optional(),
}).strict();
export type UserListQuery = z.input<typeof userListQuerySchema>;
export type UserList = Page<User>;

/** Uploads of the user's own pictures (multipart field "file"). */
export const USER_IMAGE_KINDS = ['avatar', 'cover_image'] as const;
export type UserImageKind = (typeof USER_IMAGE_KINDS)[number];
export const USER_IMAGE_MIMES = ['image/jpeg', 'image/png', 'image/webp'] as const;
/** Avatars are square crops; covers keep their ratio at this width. */
export const AVATAR_SIZE_PX = 256;
export const COVER_WIDTH_PX = 1600;

/** SPEC §3 plan_members (proto/src/plans.ts). */
export type PlanMembers = PlanMembersView;

export interface UserStats {
  projects: number;
  visits: number;
  sheets: number;
  open_snags: number;
}

/** SPEC §3 Profile load response (GET /users/{id}/profile). */
export interface ProfileLoad {
  user: User;
  plan_info: PlanInfo | null;
  user_stats: UserStats;
  plan_slot: PlanSlot | null;
  plan_members: PlanMembers;
  notification_preferences: NotificationPreferences;
}
