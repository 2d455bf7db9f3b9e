import { afterAll, describe, expect, it } from 'vitest';
import { ACTIVATION_PATH, PASSWORD_RESET_PATH } from '@sitewalk/proto';
import { config } from '@sitewalk/core/config.js';
import { closeQueues } from '@sitewalk/core/queue';
import { useOwnRedisPrefix, waitFor } from '../../workers/test/helpers.js';
import { useMailDelivery } from '../../workers/test/mail-delivery.js';
import { readMail, tokenLink, type ReadMail } from '../../test/support/mime.js';
import { api, createUser, uniqueIp, uniqueName } from './helpers.js';
import { keepSettingsSteady } from './settings-lock.js';

// A password alone gives a session here: no file turns two-factor sign-in on meanwhile.
keepSettingsSteady('2fa_enable');

// Own queues: the workers started here must not take other test files' jobs, nor theirs ours.
useOwnRedisPrefix('account-mail');

// Registered before the mail delivery's hooks, so it runs after them.
afterAll(() => closeQueues());
const delivery = useMailDelivery({
  queues: ['mail'],
  settings: { name: 'SiteWalk', enable_registration: true, validate_email: true, notify_registrations: false },
});

/** The one mail the sink received for an address, as a mail reader shows it. */
const mailTo = async (address: string): Promise<ReadMail> => {
  const [got] = await waitFor(() => (delivery.sink.to(address).length ? delivery.sink.to(address) : null), `a mail to ${address}`);
  return readMail(got.raw);
};
const linkIn = (mail: ReadMail, path: string) => {
  const link = tokenLink(mail.text, path);
  if (!link) throw new Error(`no ${path} link in: ${mail.text}`);
  return link;
};

describe('password recovery through a real SMTP server', () => {
  it('mails a reset link that opens the reset page and sets the new password', async () => {
    const { user, password } = await createUser({ first_name: 'Sami' });
    const ask = await api().post('/api/password/email').set('X-Forwarded-For', uniqueIp()).send({ username_f: user.email });
    expect(ask.status).toBe(200);

    const mail = await mailTo(user.email);
    expect(mail.subject).toBe('SiteWalk: reset your password');
    expect(mail.text).toContain('Hello Sami,');
    const { url, token } = linkIn(mail, PASSWORD_RESET_PATH);
    expect(url.startsWith(`${config.appUrl}${PASSWORD_RESET_PATH}?token=`)).toBe(true);
    expect(mail.html).toContain(`href="${url}"`);

    const check = await api().get('/api/password/check-token').query({ token }).set('X-Forwarded-For', uniqueIp());
    expect(check.status).toBe(200);
    const reset = await api().post('/api/password/reset').set('X-Forwarded-For', uniqueIp()).send({ token, password: 'recovered by mail 1' });
    expect(reset.status).toBe(200);

    const oldLogin = await api().post('/api/login').set('X-Forwarded-For', uniqueIp()).send({ username: user.username, password });
    expect(oldLogin.status).toBe(401);
    const newLogin = await api().post('/api/login').set('X-Forwarded-For', uniqueIp()).send({ username: user.username, password: 'recovered by mail 1' });
    expect(newLogin.status).toBe(200);
    expect(delivery.sink.to(user.email)).toHaveLength(1);
  });

  it('sends nothing for an address without an account, with the same answer', async () => {
    const ghost = `${uniqueName('ghost')}@example.test`;
    const known = await createUser();
    const [a, b] = await Promise.all([
      api().post('/api/password/email').set('X-Forwarded-For', uniqueIp()).send({ username_f: ghost }),
      api().post('/api/password/email').set('X-Forwarded-For', uniqueIp()).send({ username_f: known.user.email }),
    ]);
    expect(a.body).toEqual(b.body);
    // Once the real account's mail has arrived, the other one would have too.
    await mailTo(known.user.email);
    expect(delivery.sink.to(ghost)).toHaveLength(0);
  });
});

describe('account activation through a real SMTP server', () => {
  it('mails an Arabic activation link to an Arabic registrant, and the link activates the account', async () => {
    const username = uniqueName('ar');
    const email = `${username}@example.test`;
    const reg = await api().post('/api/register').set('X-Forwarded-For', uniqueIp()).send({ username, email, password: 'arabic account 1', first_name: 'سارة', language: 'ar' });
    expect(reg.status).toBe(201);
    expect(reg.body.data).toMatchObject({ validate_email: true, is_email_sent: true, error_mail: null });

    const mail = await mailTo(email);
    expect(mail.subject).toBe('SiteWalk: فعّل حسابك');
    expect(mail.text).toContain('مرحباً سارة،');
    expect(mail.html).toContain('dir="rtl"');
    const { token } = linkIn(mail, ACTIVATION_PATH);

    const act = await api().post('/api/activate-account').set('X-Forwarded-For', uniqueIp()).send({ token });
    expect(act.status).toBe(200);
    const login = await api().post('/api/login').set('X-Forwarded-For', uniqueIp()).send({ username, password: 'arabic account 1' });
    expect(login.status).toBe(200);
    expect(login.body.data.user).toMatchObject({ language: 'ar', active: true });
  });
});
