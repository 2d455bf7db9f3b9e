import { inject } from 'vitest';
import type { Settings } from '@sitewalk/proto';
import { createUser as createApiUser, uniqueName, type TestUser } from '../../api/test/helpers.js';
import { getSettings, saveSettings } from '@sitewalk/core/services/settings.service.js';
import { notify, type NotifyInput } from '@sitewalk/core/services/notifications.service.js';
import type { SinkMail } from '../../test/support/smtp-sink.js';
import './provided.js';

export { uniqueName, type TestUser };

/**
 * A signed-up, active user straight in the database (the UI is not what these
 * tests are about), with the shared test password unless one is given.
 * Usernames are unique per call so tests never meet each other's data.
 */
export function createUser(over: Parameters<typeof createApiUser>[0] = {}): Promise<TestUser> {
  return createApiUser({ username: uniqueName('e2e'), ...over });
}

/** The super administrator the global setup seeded. */
export const admin = () => inject('admin');

/**
 * Runs `fn` with some settings changed, then puts the previous values back
 * (the settings are one shared row set; test files run one after another).
 */
export async function withSettings<T>(patch: Partial<Settings>, fn: () => Promise<T>): Promise<T> {
  const before = await getSettings();
  const previous = Object.fromEntries(Object.keys(patch).map((k) => [k, before[k as keyof Settings]])) as Partial<Settings>;
  await saveSettings(patch);
  try {
    return await fn();
  } finally {
    await saveSettings(previous);
  }
}

/** Sends a notification the way every feature of the server does (notify → notify.dispatch job → Socket.IO). */
export function notifyUser(userId: number, input: NotifyInput) {
  return notify(userId, input);
}

/** Mails the SMTP sink received so far. */
export async function mails(): Promise<SinkMail[]> {
  const res = await fetch(inject('mailboxUrl'));
  return (await res.json()) as SinkMail[];
}

/** Waits for a mail to `to` that matches `match`, for up to `timeoutMs`. */
export async function waitForMail(to: string, match: (m: SinkMail) => boolean = () => true, timeoutMs = 20_000): Promise<SinkMail> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const found = (await mails()).find((m) => m.to.includes(to.toLowerCase()) && match(m));
    if (found) return found;
    if (Date.now() > until) {
      const why = inject('workersProblem');
      throw new Error(`No mail to ${to} within ${timeoutMs} ms${why ? ` (workers not running: ${why})` : ''}.`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}
