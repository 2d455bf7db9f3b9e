import type { Context } from 'koa';
import type { LoginResponse } from '@sitewalk/proto';
import { toUserDto, type User } from '@sitewalk/core/db';
import { issueSession } from '@sitewalk/core/services/session.service.js';
import { signedUrl } from '@sitewalk/core/storage';
import { ok } from './envelope.js';

/**
 * The last move of every way of signing in (password, password + second
 * factor, password + setting one up): a session and its token, with what the
 * step adds (the recovery codes of a second factor just set up).
 */
export async function answerSignedIn<Extra extends object = object>(ctx: Context, user: User, remember: boolean, extra?: Extra): Promise<void> {
  const s = await issueSession(user.id, { remember, ip: ctx.ip, userAgent: ctx.get('user-agent') });
  ok<LoginResponse & Extra>(ctx, { token: s.token, user: toUserDto(user, signedUrl), expiresAt: s.expiresAt, ...(extra as Extra) }, 'Signed in.');
}
