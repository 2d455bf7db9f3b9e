import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECRET_PLACEHOLDER, SOCIAL_REFUSALS } from '@sitewalk/proto';
import { config } from '@sitewalk/core/config.js';
import { User, db } from '@sitewalk/core/db';
import { closeRedis } from '@sitewalk/core/redis.js';
import { totpCodeAt } from '@sitewalk/core/two-factor-codes.js';
import { startSocialStandIn, type SocialStandIn, type StandInPerson, type StandInProvider } from '../../test/support/social-stand-in.js';
import { SOCIAL_CLIENTS, SOCIAL_PEOPLE } from '../../test/support/social-sample.js';
import { api, createUser, uniqueName, type TestUser } from './helpers.js';
import { lockSettings, type SettingsLock } from './settings-lock.js';

let settings: SettingsLock;
let standIn: SocialStandIn;

const XSRF = 'xsrf-social-test';
const enableAll = {
  social_google_enable: true,
  social_google_id: SOCIAL_CLIENTS.google.id,
  social_google_secret: SOCIAL_CLIENTS.google.secret,
  social_facebook_enable: true,
  social_facebook_id: SOCIAL_CLIENTS.facebook.id,
  social_facebook_secret: SOCIAL_CLIENTS.facebook.secret,
  social_twitter_enable: true,
  social_twitter_id: SOCIAL_CLIENTS.twitter.id,
  social_twitter_secret: SOCIAL_CLIENTS.twitter.secret,
  enable_registration: true,
};

beforeAll(async () => {
  settings = await lockSettings();
  standIn = await startSocialStandIn({ clients: SOCIAL_CLIENTS, people: SOCIAL_PEOPLE });
  for (const p of ['google', 'facebook', 'twitter'] as const) config.socialBaseUrls[p] = standIn.baseOf(p);
  await settings.set(enableAll);
}, 180_000);
afterAll(async () => {
  await settings?.release();
  await standIn?.close();
  await closeRedis();
});

/** A person of one service, new to SiteWalk unless their e-mail says otherwise. */
function person(provider: StandInProvider, over: Partial<StandInPerson> = {}): StandInPerson {
  const name = uniqueName(provider);
  const p: StandInPerson = { provider, subject: `${provider}-${name}`, email: `${name}@mail.example.test`, email_verified: true, first_name: 'Sam', last_name: 'Site', ...over };
  standIn.addPerson(p);
  return p;
}

interface Started {
  url: URL;
  /** The browser's binding cookie, as the browser that started would send it back. */
  cookie: string;
}

async function start(provider: StandInProvider, opts: { user?: TestUser; intent?: 'sign_in' | 'link'; remember?: boolean } = {}): Promise<Started> {
  const req = api().post(`/api/auth/social/${provider}/start`);
  if (opts.user) req.set(opts.user.auth);
  const res = await req.send({ intent: opts.intent ?? 'sign_in', remember_me: opts.remember ?? false });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const cookie = ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((c) => c.startsWith('sw_social='));
  expect(cookie).toBeDefined();
  expect(cookie).toMatch(/httponly/i);
  return { url: new URL(res.body.data.url), cookie: cookie!.split(';')[0] };
}

/** The person's choice on the service's consent page: where the service sends the browser back. */
async function consent(url: URL, subject: string): Promise<URL> {
  const form = new URLSearchParams(url.searchParams);
  form.set('person', subject);
  const res = await fetch(`${url.origin}${url.pathname}`, { method: 'POST', body: form, redirect: 'manual' });
  expect(res.status).toBe(302);
  return new URL(res.headers.get('location')!);
}

/** The browser arriving back at SiteWalk: where SiteWalk then sends it. */
async function callback(back: URL, cookie: string | null): Promise<URL> {
  const req = api().get(`${back.pathname}${back.search}`);
  if (cookie) req.set('Cookie', cookie);
  const res = await req;
  expect(res.status).toBe(302);
  return new URL(res.headers.location, 'http://sitewalk.test');
}

async function exchange(ticket: string, cookie: string | null) {
  return api()
    .post('/api/auth/social/exchange')
    .set('Cookie', `${cookie ? `${cookie}; ` : ''}XSRF-TOKEN=${XSRF}`)
    .set('X-XSRF-TOKEN', XSRF)
    .send({ ticket });
}

/** The whole sign-in in one browser: start, consent, callback; the landing address. */
async function signInThrough(provider: StandInProvider, subject: string, remember = false): Promise<{ landing: URL; cookie: string }> {
  const s = await start(provider, { remember });
  return { landing: await callback(await consent(s.url, subject), s.cookie), cookie: s.cookie };
}

async function signedInAs(provider: StandInProvider, subject: string): Promise<{ token: string; userId: number }> {
  const { landing, cookie } = await signInThrough(provider, subject);
  expect(landing.pathname).toBe('/login');
  const ticket = landing.searchParams.get('social_ticket');
  expect(ticket, landing.toString()).toBeTruthy();
  const res = await exchange(ticket!, cookie);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { token: res.body.data.token, userId: res.body.data.user.id };
}

const refusalOf = (landing: URL) => landing.searchParams.get('social_error');

describe('signing in with a service', () => {
  it('makes an account for a new Google user when registration is open, with a session from a one-time ticket', async () => {
    const p = person('google', { first_name: 'Grace', last_name: 'Brewster' });
    const { landing, cookie } = await signInThrough('google', p.subject);
    const ticket = landing.searchParams.get('social_ticket')!;
    const res = await exchange(ticket, cookie);
    expect(res.status).toBe(200);
    expect(res.body.data.user).toMatchObject({ email: p.email, first_name: 'Grace', last_name: 'Brewster' });
    const me = await api().get('/api/account/social').set('Authorization', `Bearer ${res.body.data.token}`);
    expect(me.body.data).toMatchObject({ password_set: false, accounts: [{ provider: 'google', email: p.email }] });
    const stored = await User.query().findById(res.body.data.user.id);
    expect(stored?.email_verified_at).not.toBeNull();
    // The ticket works once.
    expect((await exchange(ticket, cookie)).status).toBe(401);
    // Signing in again finds the same account by its link.
    expect((await signedInAs('google', p.subject)).userId).toBe(res.body.data.user.id);
  });

  it('while the site requires two-factor, sets it up after the service, then asks for its code, giving no session before either', async () => {
    await settings.set({ '2fa_enable': true });
    try {
      const p = person('google');
      const ticketStep = async () => {
        const { landing, cookie } = await signInThrough('google', p.subject);
        const step = await exchange(landing.searchParams.get('social_ticket')!, cookie);
        expect(step.status, step.body.message).toBe(200);
        expect(step.body.data.token).toBeUndefined();
        return step.body.data as { challenge: string; enrolment_required: boolean; remember_me: boolean };
      };
      // A new account has no second factor: the service's word leads to the setup, as a password does.
      const enrol = await ticketStep();
      expect(enrol).toMatchObject({ two_factor_required: true, enrolment_required: true, remember_me: false });
      // The challenge is not a session.
      expect((await api().get('/api/account/social').set('Authorization', `Bearer ${enrol.challenge}`)).status).toBe(401);
      const setup = await api().post('/api/login/two-factor/setup').send({ challenge: enrol.challenge });
      expect(setup.status, setup.body.message).toBe(200);
      const secret = setup.body.data.secret as string;
      const enrolled = await api().post('/api/login/two-factor/enrol').send({ challenge: enrol.challenge, code: totpCodeAt(secret) });
      expect(enrolled.status, enrolled.body.message).toBe(200);
      expect(enrolled.body.data.recovery_codes).toHaveLength(10);

      const code = await ticketStep();
      expect(code).toMatchObject({ two_factor_required: true, enrolment_required: false });
      const signedIn = await api().post('/api/login/two-factor').send({ challenge: code.challenge, code: totpCodeAt(secret, Date.now() + 30_000) });
      expect(signedIn.status, signedIn.body.message).toBe(200);
      expect(signedIn.body.data.user.id).toBe(enrolled.body.data.user.id);
    } finally {
      // The other tests here sign in with a service alone.
      await settings.set({ '2fa_enable': false });
    }
  });

  it('refuses a forged callback state, and a real one brought back by another browser, without trading the code', async () => {
    const p = person('google');
    const issuedBefore = standIn.tokensIssued.google;
    const s = await start('google');
    const back = await consent(s.url, p.subject);
    const forged = new URL(back);
    forged.searchParams.set('state', 'forged-state-0123456789abcdef');
    expect(refusalOf(await callback(forged, s.cookie))).toBe('state');
    // The victim's browser (no binding cookie, or another one) gets the attacker's callback: refused.
    expect(refusalOf(await callback(back, null))).toBe('state');
    expect(refusalOf(await callback(back, (await start('google')).cookie))).toBe('state');
    // That state is spent now: even the right browser cannot use it.
    expect(refusalOf(await callback(back, s.cookie))).toBe('state');
    expect(standIn.tokensIssued.google).toBe(issuedBefore);
    expect(await db()('users').whereRaw('lower(email) = lower(?)', [p.email!]).first()).toBeUndefined();
    expect(SOCIAL_REFUSALS.state).toMatch(/not started here/);
  });

  it('refuses a ticket from another browser or a made-up one', async () => {
    const p = person('twitter', { username: uniqueName('x') });
    const { landing } = await signInThrough('twitter', p.subject);
    const ticket = landing.searchParams.get('social_ticket')!;
    const stolen = await exchange(ticket, (await start('google')).cookie);
    expect(stolen.status).toBe(401);
    expect(stolen.body.message).toBe(SOCIAL_REFUSALS.ticket);
    expect((await exchange('made-up-ticket-0123456789abcdef', null)).status).toBe(401);
    expect((await exchange('short', null)).status).toBe(400);
  });

  it('refuses an ID token not signed by Google’s keys', async () => {
    const p = person('google');
    const s = await start('google');
    const back = await consent(s.url, p.subject);
    standIn.forgeNextIdToken();
    expect(refusalOf(await callback(back, s.cookie))).toBe('provider_failed');
  });

  it('links a Facebook sign-in to the existing account with that confirmed e-mail', async () => {
    const owner = await createUser();
    const p = person('facebook', { email: owner.user.email.toUpperCase() });
    const { userId } = await signedInAs('facebook', p.subject);
    expect(userId).toBe(owner.user.id);
    expect(await db()('user_identities').where({ user_id: owner.user.id, provider: 'facebook' }).first()).toBeDefined();
  });

  it('never joins an account whose own address was not confirmed, nor one disabled', async () => {
    const unconfirmed = await createUser({ email_verified_at: null });
    expect(refusalOf((await signInThrough('google', person('google', { email: unconfirmed.user.email }).subject)).landing)).toBe('unconfirmed_account');
    const disabled = await createUser({ active: false });
    expect(refusalOf((await signInThrough('google', person('google', { email: disabled.user.email }).subject)).landing)).toBe('account_disabled');
    expect(await db()('user_identities').whereIn('user_id', [unconfirmed.user.id, disabled.user.id])).toHaveLength(0);
  });

  it('refuses an e-mail the service did not confirm, a cancelled sign-in, and a new person when registration is closed', async () => {
    expect(refusalOf((await signInThrough('google', person('google', { email_verified: false }).subject)).landing)).toBe('no_verified_email');
    expect(refusalOf((await signInThrough('twitter', person('twitter', { email: null }).subject)).landing)).toBe('no_verified_email');
    const s = await start('facebook');
    expect(refusalOf(await callback(await consent(s.url, ''), s.cookie))).toBe('denied');
    await settings.set({ enable_registration: false });
    try {
      const p = person('google');
      expect(refusalOf((await signInThrough('google', p.subject)).landing)).toBe('registration_closed');
      expect(await db()('users').whereRaw('lower(email) = lower(?)', [p.email!]).first()).toBeUndefined();
    } finally {
      await settings.set({ enable_registration: true });
    }
  });

  it('offers only the services turned on, and never shows their secrets', async () => {
    await settings.set({ social_facebook_enable: false });
    try {
      const res = await api().post('/api/auth/social/facebook/start').send({});
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('Signing in with Facebook is not enabled on this site.');
      const anonymous = (await api().get('/api/settings')).body.data;
      expect(anonymous).toMatchObject({ social_google_enable: true, social_facebook_enable: false });
      expect(anonymous.social_google_secret).toBeUndefined();
      const admin = await createUser({ super_admin: true });
      expect((await api().get('/api/settings').set(admin.auth)).body.data.social_google_secret).toBe(SECRET_PLACEHOLDER);
      const row = await db()('settings').where({ key: 'social_google_secret' }).first('value');
      expect(JSON.stringify(row.value)).not.toContain(SOCIAL_CLIENTS.google.secret);
    } finally {
      await settings.set({ social_facebook_enable: true });
    }
    expect((await api().post('/api/auth/social/myspace/start').send({})).status).toBe(400);
    expect((await api().post('/api/auth/social/google/start').send({ intent: 'link' })).status).toBe(401);
  });
});

describe('linked accounts in the profile', () => {
  it('links X to a signed-in account and unlinks it; a service account of someone else is refused', async () => {
    const u = await createUser();
    const p = person('twitter', { email: null });
    const s = await start('twitter', { user: u, intent: 'link' });
    const landing = await callback(await consent(s.url, p.subject), s.cookie);
    expect(landing.pathname).toBe('/profile');
    expect(landing.searchParams.get('social_linked')).toBe('twitter');
    // Now the X account signs in to it, although X shared no e-mail.
    expect((await signedInAs('twitter', p.subject)).userId).toBe(u.user.id);

    const other = await createUser();
    const s2 = await start('twitter', { user: other, intent: 'link' });
    const refused = await callback(await consent(s2.url, p.subject), s2.cookie);
    expect(refused.pathname).toBe('/profile');
    expect(refusalOf(refused)).toBe('linked_elsewhere');

    // Someone else cannot unlink it; its owner can (a password remains).
    expect((await api().delete('/api/account/social/twitter').set(other.auth)).status).toBe(404);
    expect((await api().delete('/api/account/social/twitter').set(u.auth)).status).toBe(200);
    expect((await api().get('/api/account/social').set(u.auth)).body.data.accounts).toEqual([]);
  });

  it('never leaves an account without a way in: the last service of an account without a password stays until a password is set', async () => {
    const p = person('google');
    const { token, userId } = await signedInAs('google', p.subject);
    const auth = { Authorization: `Bearer ${token}` };
    const refused = await api().delete('/api/account/social/google').set(auth);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('Google is the only way into your account. Set a password first (with "Forgot your password?" on the sign-in page), then unlink Google.');
    // A second service makes the first one removable.
    const fb = person('facebook', { email: null });
    const s = await start('facebook', { user: { auth } as TestUser, intent: 'link' });
    expect((await callback(await consent(s.url, fb.subject), s.cookie)).searchParams.get('social_linked')).toBe('facebook');
    expect((await api().delete('/api/account/social/google').set(auth)).status).toBe(200);
    expect((await api().delete('/api/account/social/facebook').set(auth)).status).toBe(409);
    // Any path that sets a password (here the stored hash changing, as a reset does) frees the last one.
    await User.query().patch({ password_hash: 'changed-by-a-reset' }).where({ id: userId });
    expect((await api().get('/api/account/social').set(auth)).body.data.password_set).toBe(true);
    expect((await api().delete('/api/account/social/facebook').set(auth)).status).toBe(200);
  });
});

describe('bad input', () => {
  it('answers 4xx with a sentence, never 5xx, to odd values in every social route', async () => {
    const u = await createUser();
    // Each as a JSON value, and as written in an address (a lone surrogate has no UTF-8: its bytes are given as they would arrive).
    const odd: [string, string][] = [
      ['a\u0000b', 'a%00b'],
      ['x\ud800y', 'x%ED%A0%80y'],
      ['x'.repeat(5_000), 'x'.repeat(5_000)],
      ['../../etc', '..%2F..%2Fetc'],
      ['%00', '%2500'],
    ];
    for (const [v, e] of odd) {
      const answers: [string, Awaited<ReturnType<ReturnType<typeof api>['get']>>][] = [
        ['POST start of an odd service', await api().post(`/api/auth/social/${e}/start`).send({})],
        ['POST start with odd intent', await api().post('/api/auth/social/google/start').send({ intent: v, remember_me: v })],
        ['GET callback with odd state', await api().get(`/api/auth/social/google/callback?state=${e}&code=${e}`)],
        ['GET callback of an odd service', await api().get(`/api/auth/social/${e}/callback?state=${e}`)],
        ['POST exchange of an odd ticket', await api().post('/api/auth/social/exchange').send({ ticket: v })],
        ['DELETE an odd service', await api().delete(`/api/account/social/${e}`).set(u.auth)],
      ];
      for (const [what, res] of answers) {
        const label = `${what} (${v.slice(0, 20)})`;
        expect(res.status, label).toBeLessThan(500);
        if (res.status !== 302) expect(res.body.message, label).toMatch(/[A-Za-z]{2,} [a-z]/);
      }
    }
    expect((await api().get('/api/auth/social/google/callback?state=a&state=b')).status).toBeLessThan(500);
    expect((await api().post('/api/auth/social/exchange').send({ ticket: ['x'.repeat(30)] })).status).toBe(400);
  });
});
