import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Notification, closeDb } from '@sitewalk/api/db';
import { closeQueues, enqueue } from '@sitewalk/api/queue';
import { closeEmitter } from '@sitewalk/api/realtime';
import { closeRedis } from '@sitewalk/api/redis';
import { getSettings } from '@sitewalk/api/services/settings.service.js';
import { lockSettings, type SettingsLock } from '../../api/test/settings-lock.js';
import { createUser } from '../../api/test/helpers.js';
import { handlers } from '../src/jobs/index.js';
import { startWorkers, type RunningWorkers } from '../src/runner.js';
import { settled, waitFor, useOwnRedisPrefix } from './helpers.js';
import { sinkSettings, startSmtpSink, type SmtpSink } from './smtp-sink.js';

useOwnRedisPrefix('mail-verify');

let sink: SmtpSink;
let settings: SettingsLock;
let workers: RunningWorkers;

beforeAll(async () => {
  sink = await startSmtpSink();
  settings = await lockSettings();
  workers = startWorkers(handlers, { queues: ['mail', 'notifications'] });
});
afterAll(async () => {
  await workers?.close();
  await settings?.release();
  await sink?.close();
  await Promise.allSettled([closeQueues(), closeEmitter(), closeRedis()]);
  await closeDb();
});

/** A loopback port nobody listens on. */
async function closedPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

const adminNotification = (userId: number, title: string) =>
  waitFor(async () => Notification.query().findOne({ user_id: userId, title }), `the "${title}" notification`);

describe('mail.verify', () => {
  it('turns smtp_valid on when the server answers, and tells super admins by app and by a mail that proves it', async () => {
    const admin = await createUser({ super_admin: true });
    const plain = await createUser();
    await settings.set({ ...sinkSettings(sink.port), smtp_valid: false });
    const job = await enqueue('mail.verify', { requested_by: admin.user.id });
    const { state, job: done } = await settled(job);
    expect(state).toBe('completed');
    expect(done.returnvalue).toMatchObject({ valid: true, stored: true });
    expect((await getSettings()).smtp_valid).toBe(true);

    const n = await adminNotification(admin.user.id, 'Mail server works');
    expect(n.toDto()).toMatchObject({ type: 'success', link: '/settings' });
    expect(n.message).toContain(`127.0.0.1:${sink.port}`);
    await waitFor(() => sink.to(admin.user.email).length === 1, 'the confirmation mail at the sink');
    expect(await Notification.query().where({ user_id: plain.user.id })).toHaveLength(0);
  });

  it('turns smtp_valid off with the reason when the server cannot be reached', async () => {
    const admin = await createUser({ super_admin: true });
    await settings.set({ ...sinkSettings(await closedPort()), smtp_valid: true });
    const job = await enqueue('mail.verify', {});
    const { state, job: done } = await settled(job);
    expect(state).toBe('completed');
    expect(done.returnvalue).toMatchObject({ valid: false, stored: true });
    expect(done.returnvalue.reason).toMatch(/refused the connection/);
    expect((await getSettings()).smtp_valid).toBe(false);
    const n = await adminNotification(admin.user.id, 'Mail server check failed');
    expect(n.type).toBe('error');
    expect(n.message).toMatch(/cannot send e-mail: The SMTP server refused the connection/);
  });

  it('says what is missing when no server is set', async () => {
    await settings.set({ smtp_server: '', smtp_valid: true });
    const { job: done } = await settled(await enqueue('mail.verify', {}));
    expect(done.returnvalue).toMatchObject({ valid: false, reason: 'No SMTP server is set.' });
    expect((await getSettings()).smtp_valid).toBe(false);
  });
});
