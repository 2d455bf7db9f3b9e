import crypto from 'node:crypto';
import http from 'node:http';
import request from 'supertest';
import type Koa from 'koa';
import { createApp } from '../src/app.js';
import { User } from '@sitewalk/core/db';
import { issueSession } from '@sitewalk/core/services/session.service.js';
import { hashPassword } from '@sitewalk/core/services/passwords.js';

let app: Koa | null = null;
/** The Koa app under test (real Postgres and Redis), created once per test file. */
export function testApp(): Koa {
  app ??= createApp({ serveClient: false });
  return app;
}

let server: http.Server | null = null;
/**
 * An HTTP client bound to the app. One server per test file, listening once: given a bare callback,
 * supertest would listen on a new port for every request, and a file sending thousands (bad-input)
 * beside the rest of the suite ran the machine out of ephemeral ports (EADDRINUSE).
 */
export function api() {
  if (!server) {
    server = http.createServer(testApp().callback());
    // The client's idle keep-alive sockets (Node's agent: 5 s) are closed before the server's: with both at 5 s, a
    // request sent on a socket the server was closing at that moment failed with EPIPE on a loaded machine.
    server.keepAliveTimeout = 30_000;
    server.listen(0, '127.0.0.1');
    // Never what keeps a test process alive.
    server.unref();
  }
  return request(server);
}

export const uniqueIp = () => `10.${crypto.randomInt(255)}.${crypto.randomInt(255)}.${crypto.randomInt(1, 255)}`;
export const uniqueName = (prefix = 'user') => `${prefix}_${crypto.randomBytes(5).toString('hex')}`;

// Hashing is slow on purpose; tests share one hash of the default password.
const DEFAULT_PASSWORD = 'correct horse battery';
let defaultHash: Promise<string> | null = null;

export interface TestUser {
  user: User;
  password: string;
  token: string;
  auth: { Authorization: string };
}

/** Creates an active user with a session; `super_admin: true` for an administrator. */
export async function createUser(over: Partial<User> & { password?: string } = {}): Promise<TestUser> {
  const { password = DEFAULT_PASSWORD, ...fields } = over;
  defaultHash ??= hashPassword(DEFAULT_PASSWORD);
  const hash = password === DEFAULT_PASSWORD ? await defaultHash : await hashPassword(password);
  const username = fields.username ?? uniqueName();
  const user = await User.query().insertAndFetch({
    username,
    email: `${username.toLowerCase()}@example.test`,
    password_hash: hash,
    first_name: 'Test',
    last_name: 'User',
    active: true,
    email_verified_at: new Date(),
    ...fields,
  });
  const s = await issueSession(user.id, { remember: false });
  return { user, password, token: s.token, auth: { Authorization: `Bearer ${s.token}` } };
}
