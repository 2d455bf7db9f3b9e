import { projectFolder } from './sheets.service.js';
import { UniqueViolationError } from 'objection';
import {
  ACTIVATION_PATH,
  ACTIVATION_TTL_MS,
  type User as UserDto,
  type UserCreateResponse,
  type UserList,
  type userCreateSchema,
  type userListQuerySchema,
  type userUpdateSchema,
} from '@sitewalk/proto';
import type { z } from 'zod';
import { type User, db, toUserDto } from '../db/index.js';
import type { Db } from '../db/query-types.js';
import { deleteUserRow, insertUser, isTaken, ownedProjectIds, patchUser, userById, userByLogin, userPage } from '../repositories/users.repository.js';
import { badRequest, conflict, forbidden, notFound } from '../errors.js';
import { isSuperAdmin } from './access.service.js';
import { config } from '../config.js';
import { remove, signedUrl } from '../storage/index.js';
import { invitationMail } from '../mail/templates.js';
import { mailLanguage, queueMail } from '../mail/mail-queue.js';
import { getSettings } from './settings.service.js';
import { hashPassword, unusablePasswordHash } from './passwords.js';
import { issueUserToken } from './user-tokens.service.js';
import { revokeAllSessions } from './session.service.js';

/** The user as the API shows it, with signed URLs for the pictures. */
export const userDto = (u: User): UserDto => toUserDto(u, signedUrl);

/** How mails greet a person: first name, else username. */
export const displayName = (u: Pick<User, 'first_name' | 'username'>) => u.first_name?.trim() || u.username;

/** How mails name someone to others: full name, else username. */
export const fullName = (u: Pick<User, 'first_name' | 'last_name' | 'username'>) =>
  `${u.first_name ?? ''} ${u.last_name ?? ''}`.trim() || u.username;

/** The account whose username or e-mail this is, whatever the case. */
export const findUserByLogin = (login: string) => userByLogin(db(), login);

const USERNAME_TAKEN = 'This username is already taken. Choose another one.';
const EMAIL_TAKEN = 'An account with this e-mail address already exists.';

/** Refuses with 409 and a clear message when a username or e-mail belongs to another account. */
export async function assertUnique(fields: { username?: string; email?: string }, exceptId?: number, k: Db = db()): Promise<void> {
  const check = async (column: 'username' | 'email', value: string | undefined, message: string) => {
    if (value && (await isTaken(k, column, value, exceptId))) throw conflict(message);
  };
  await check('username', fields.username, USERNAME_TAKEN);
  await check('email', fields.email, EMAIL_TAKEN);
}

/** Turns a unique-index violation (two requests racing) into the same 409 as assertUnique. */
export function uniqueViolationToConflict(err: unknown): never {
  if (err instanceof UniqueViolationError) {
    const c = String(err.constraint ?? '');
    throw conflict(c.includes('email') ? EMAIL_TAKEN : c.includes('username') ? USERNAME_TAKEN : undefined);
  }
  throw err;
}

/** A user that the viewer may see: themselves, or anyone for a super admin; 404 otherwise. */
export async function visibleUser(viewer: User, id: number): Promise<User> {
  if (viewer.id !== id && !isSuperAdmin(viewer)) throw notFound();
  const u = await userById(db(), id);
  if (!u) throw notFound();
  return u;
}

/** One page of users, optionally filtered by a text in username, e-mail or name. */
export async function listUsers(q: z.infer<typeof userListQuerySchema>): Promise<UserList> {
  const { rows, total } = await userPage(db(), q.search, q.page, q.per_page);
  return { items: rows.map(userDto), total, page: q.page, per_page: q.per_page };
}

/**
 * A super admin creates an account. With a password it is active at once;
 * without one it waits inactive for the invitation link mailed to the person,
 * where they choose their username and password.
 */
export async function createUserByAdmin(admin: User, input: z.infer<typeof userCreateSchema>): Promise<UserCreateResponse> {
  await assertUnique({ username: input.username, email: input.email });
  const invite = !input.password;
  const password_hash = input.password ? await hashPassword(input.password) : await unusablePasswordHash();
  const { password: _password, ...fields } = input;
  const { user, token } = await db()
    .transaction(async (trx) => {
      const user = await insertUser(trx, {
        ...fields,
        password_hash,
        active: !invite,
        email_verified_at: invite ? null : new Date(),
      });
      const token = invite ? await issueUserToken(user.id, 'invitation', ACTIVATION_TTL_MS, trx) : null;
      return { user, token };
    })
    .catch(uniqueViolationToConflict);

  let invitation_sent = false;
  if (token) {
    const settings = await getSettings();
    const lang = mailLanguage(user.language);
    const mail = invitationMail(lang, {
      siteName: settings.name,
      name: displayName(user),
      invitedBy: fullName(admin),
      link: `${config.appUrl}${ACTIVATION_PATH}?token=${encodeURIComponent(token.token)}`,
      ttlMs: ACTIVATION_TTL_MS,
    });
    invitation_sent = await queueMail(user.email, mail, 'invitation', `invitation-${token.id}`);
  }
  return { user: userDto(user), invitation_sent };
}

type UserPatch = z.infer<typeof userUpdateSchema>;
const ADMIN_ONLY_FIELDS = ['role', 'super_admin', 'active'] as const;

/**
 * Changes a user's fields: the user themselves or a super admin; role,
 * administrator flag and active state only by a super admin. Only fields
 * whose value differs are written. Returns the user as stored now.
 */
export async function updateUser(viewer: User, id: number, patch: UserPatch): Promise<{ user: User; changed: string[] }> {
  const target = await visibleUser(viewer, id);
  const admin = isSuperAdmin(viewer);
  if (!admin && ADMIN_ONLY_FIELDS.some((f) => patch[f] !== undefined)) {
    throw forbidden('Only administrators can change the role, the administrator flag or the active state of an account.');
  }
  if (viewer.id === id && (patch.super_admin === false || patch.active === false)) {
    throw badRequest('You cannot remove your own administrator rights or deactivate your own account.');
  }
  const changes: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    const current = (target as unknown as Record<string, unknown>)[key];
    if (value !== current) changes[key] = value;
  }
  // A different case of the same username or e-mail is still the user's own.
  await assertUnique(
    {
      username: typeof changes.username === 'string' ? changes.username : undefined,
      email: typeof changes.email === 'string' ? changes.email : undefined,
    },
    id,
  );
  if (!Object.keys(changes).length) return { user: target, changed: [] };
  const user = await db()
    .transaction(async (trx) => {
      const updated = await patchUser(trx, id, changes);
      // A disabled account loses its open sessions at once.
      if (changes.active === false) await revokeAllSessions(id, trx);
      return updated;
    })
    .catch(uniqueViolationToConflict);
  return { user, changed: Object.keys(changes) };
}

/** A super admin deletes another account; its pictures leave storage too. */
export async function deleteUser(admin: User, id: number): Promise<void> {
  if (admin.id === id) throw badRequest('You cannot delete your own account.');
  const target = await userById(db(), id);
  if (!target) throw notFound();
  // The user's own projects go with the account (foreign keys cascade); their files must go too.
  const ownedProjects = await ownedProjectIds(db(), id);
  await db().transaction((trx) => deleteUserRow(trx, id));
  await Promise.all([remove(target.avatar), remove(target.cover_image), ...ownedProjects.map((p) => remove(projectFolder(p)))]);
}

/** Stores the language the user reads the interface and their mails in. */
export async function setLanguage(userId: number, locale: 'en' | 'ar'): Promise<void> {
  await patchUser(db(), userId, { language: locale });
}
