import { afterAll, describe, expect, it } from 'vitest';
import { withoutIsolates } from '@sitewalk/proto';
import { Notification, closeDb } from '@sitewalk/core/db';
import { closeQueues, enqueue } from '@sitewalk/core/queue';
import { closeEmitter } from '@sitewalk/core/realtime';
import { closeRedis } from '@sitewalk/core/redis.js';
import { getSettings } from '@sitewalk/core/services/settings.service.js';
import { createUser } from '../../api/test/helpers.js';
import { freePort } from '../../test/support/free-port.js';
import { sinkSettings } from '../../test/support/smtp-sink.js';
import { settled, waitFor, useOwnRedisPrefix } from './helpers.js';
import { useMailDelivery } from './mail-delivery.js';

useOwnRedisPrefix('mail-verify');

// Registered before the mail delivery's hooks, so it runs after them.
afterAll(async () => {
  await Promise.allSettled([closeQueues(), closeEmitter(), closeRedis()]);
  await closeDb();
});
const delivery = useMailDelivery({ queues: ['mail', 'notifications'] });

const adminNotification = (userId: number, title: string) =>
  waitFor(async () => Notification.query().findOne({ user_id: userId, title }), `the "${title}" notification`);

describe('mail.verify', () => {
  it('turns smtp_valid on when the server answers, and tells super admins by app and by a mail that proves it', async () => {
    const admin = await createUser({ super_admin: true });
    const plain = await createUser();
    await delivery.settings.set({ ...sinkSettings(delivery.sink.port), smtp_valid: false });
    const job = await enqueue('mail.verify', { requested_by: admin.user.id });
    const { state, job: done } = await settled(job);
    expect(state).toBe('completed');
    expect(done.returnvalue).toMatchObject({ valid: true, stored: true });
    expect((await getSettings()).smtp_valid).toBe(true);

    const n = await adminNotification(admin.user.id, 'Mail server works');
    expect(n.toDto()).toMatchObject({ type: 'success', link: '/settings' });
    expect(n.message).toContain(`127.0.0.1:${delivery.sink.port}`);
    await waitFor(() => delivery.sink.to(admin.user.email).length === 1, 'the confirmation mail at the sink');
    expect(await Notification.query().where({ user_id: plain.user.id })).toHaveLength(0);
  });

  it('turns smtp_valid off with the reason when the server cannot be reached', async () => {
    const admin = await createUser({ super_admin: true });
    // A port nobody listens on: the connection is refused.
    await delivery.settings.set({ ...sinkSettings(await freePort()), smtp_valid: true });
    const job = await enqueue('mail.verify', {});
    const { state, job: done } = await settled(job);
    expect(state).toBe('completed');
    expect(done.returnvalue).toMatchObject({ valid: false, stored: true });
    expect(done.returnvalue.reason).toMatch(/refused the connection/);
    expect((await getSettings()).smtp_valid).toBe(false);
    const n = await adminNotification(admin.user.id, 'Mail server check failed');
    expect(n.type).toBe('error');
    expect(withoutIsolates(n.message)).toMatch(/cannot send e-mail: The SMTP server refused the connection/);
  });

  it('says what is missing when no server is set', async () => {
    await delivery.settings.set({ smtp_server: '', smtp_valid: true });
    const { job: done } = await settled(await enqueue('mail.verify', {}));
    expect(done.returnvalue).toMatchObject({ valid: false, reason: 'No SMTP server is set.' });
    expect((await getSettings()).smtp_valid).toBe(false);
  });
});
