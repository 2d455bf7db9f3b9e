import { afterAll, describe, expect, it } from 'vitest';
import { withoutIsolates } from '@sitewalk/proto';
import { ACTIVATION_PATH } from '@sitewalk/proto';
import { closeQueues } from '@sitewalk/core/queue';
import { closeEmitter } from '@sitewalk/core/realtime/emitter.js';
import { useOwnRedisPrefix, waitFor } from '../../workers/test/helpers.js';
import { useMailDelivery } from '../../workers/test/mail-delivery.js';
import { readMail, tokenLink, type ReadMail } from '../../test/support/mime.js';
import { api, createUser, uniqueIp, uniqueName } from './helpers.js';
import { newProject } from './project-helpers.js';
import { keepSettingsSteady } from './settings-lock.js';

// A password alone gives a session here: no file turns two-factor sign-in on meanwhile.
keepSettingsSteady('2fa_enable');

// Own queues: the workers started here take only this file's mail and notification jobs.
useOwnRedisPrefix('team-mail');
afterAll(async () => {
  await closeQueues();
  await closeEmitter();
});
const delivery = useMailDelivery({ queues: ['mail', 'notifications'], settings: { name: 'SiteWalk' } });

const mailTo = async (address: string): Promise<ReadMail> => {
  const [got] = await waitFor(() => (delivery.sink.to(address).length ? delivery.sink.to(address) : null), `a mail to ${address}`);
  return readMail(got.raw);
};

describe('project invitations through a real SMTP server', () => {
  it('invites an unknown e-mail: the mail opens account activation, and the new account accepts the invitation and sees the project with its permissions', async () => {
    const owner = await createUser({ first_name: 'Rania', last_name: 'Haddad' });
    const project = await newProject(owner, { name: 'Abdali Tower' });
    const email = `${uniqueName('colleague')}@example.test`;

    const sent = await api()
      .post('/api/team-members/invite-team-member')
      .set(owner.auth)
      .send({ email, role: 'editor', id_project: project.id, permissions: { manage_snags: false } });
    expect(sent.status).toBe(201);
    expect(sent.body.data).toMatchObject({ email, role: 'editor', sent: true });

    const mail = await mailTo(email);
    expect(mail.subject).toBe('SiteWalk: join the project Abdali Tower');
    expect(mail.text).toContain('Rania Haddad invited you to join the team of the project "Abdali Tower" on SiteWalk as editor.');
    const link = tokenLink(mail.text, ACTIVATION_PATH);
    expect(link).not.toBeNull();

    // The platform's activation flow: the person chooses a username and password.
    const check = await api().get('/api/check-invitation-token').set('X-Forwarded-For', uniqueIp()).query({ token: link!.token });
    expect(check.body.data).toMatchObject({ purpose: 'invitation', email, needs_credentials: true });
    const username = uniqueName('nour');
    const activated = await api().post('/api/activate-account').set('X-Forwarded-For', uniqueIp()).send({ username, password: 'new colleague 1', token: link!.token });
    expect(activated.status).toBe(200);
    const login = await api().post('/api/login').set('X-Forwarded-For', uniqueIp()).send({ username, password: 'new colleague 1' });
    expect(login.status).toBe(200);
    const auth = { Authorization: `Bearer ${login.body.data.token}` };

    // Not a member before answering: the project stays unknown.
    expect((await api().get(`/api/projects/${project.id}`).set(auth)).status).toBe(404);
    const mine = await api().get('/api/users/invitations').set(auth);
    expect(mine.body.data).toHaveLength(1);
    expect(mine.body.data[0]).toMatchObject({ project: { id: project.id, name: 'Abdali Tower' }, role: 'editor', status: 'pending', invited_by: { id: owner.user.id } });

    const accepted = await api().post(`/api/users/invitations/accept/${mine.body.data[0].id}`).set(auth);
    expect(accepted.status).toBe(200);
    expect(accepted.body.data.status).toBe('accepted');
    const seen = await api().get(`/api/projects/${project.id}`).set(auth);
    expect(seen.status).toBe(200);
    expect(seen.body.data).toMatchObject({ role: 'editor', can_edit_sheets: true, can_manage: false });
    expect(seen.body.data.permissions).toEqual({ view: true, upload: true, edit: true, manage_snags: false, manage_team: false });

    // The owner hears of it in the app (and by mail, as their preferences allow).
    const ownerMail = await mailTo(owner.user.email);
    expect(ownerMail.subject).toBe('Invitation accepted');
    const notes = await api().get('/api/notifications').set(owner.auth);
    expect(notes.body.data.items.map((n: { title: string }) => n.title)).toContain('Invitation accepted');

    // Answering twice is refused.
    expect((await api().post(`/api/users/invitations/decline/${mine.body.data[0].id}`).set(auth)).status).toBe(409);
  });

  it('invites someone with an account: a notification in the app and by mail, then a decline leaves them outside', async () => {
    const owner = await createUser();
    const colleague = await createUser({ first_name: 'Omar' });
    const project = await newProject(owner, { name: 'Jabal Amman Villas' });
    const sent = await api().post('/api/team-members/invite-team-member').set(owner.auth).send({ email: colleague.user.email.toUpperCase(), role: 'guest', id_project: project.id });
    expect(sent.status).toBe(201);

    const mail = await mailTo(colleague.user.email);
    expect(mail.subject).toBe('Project invitation');
    expect(withoutIsolates(mail.text)).toContain('invited you to join the project "Jabal Amman Villas" as guest.');
    const notes = await waitFor(async () => {
      const r = await api().get('/api/notifications').set(colleague.auth);
      return r.body.data.items.length ? r.body.data.items : null;
    }, 'the in-app notification');
    expect(notes[0]).toMatchObject({ title: 'Project invitation', link: '/invitations' });

    // A second invitation while the first waits is refused.
    expect((await api().post('/api/team-members/invite-team-member').set(owner.auth).send({ email: colleague.user.email, role: 'viewer', id_project: project.id })).status).toBe(409);

    const [inv] = (await api().get('/api/users/invitations').set(colleague.auth)).body.data;
    const declined = await api().post(`/api/users/invitations/decline/${inv.id}`).set(colleague.auth);
    expect(declined.body.data.status).toBe('declined');
    expect((await api().get(`/api/projects/${project.id}`).set(colleague.auth)).status).toBe(404);
    expect((await api().get('/api/users/invitations').set(colleague.auth)).body.data).toEqual([]);
  });

  it('cancels an invitation: the link still activates the account, but no invitation waits any more', async () => {
    const owner = await createUser();
    const project = await newProject(owner);
    const email = `${uniqueName('cancelled')}@example.test`;
    const sent = await api().post('/api/team-members/invite-team-member').set(owner.auth).send({ email, role: 'viewer', id_project: project.id });
    expect(sent.status).toBe(201);
    const team = await api().get('/api/team-members').set(owner.auth).query({ id_project: project.id });
    expect(team.body.data.invitations).toHaveLength(1);
    const cancel = await api().post('/api/team-members/cancel-invitation').set(owner.auth).send({ id_project: project.id, id_user: sent.body.data.id_user });
    expect(cancel.status).toBe(200);
    expect((await api().get('/api/team-members').set(owner.auth).query({ id_project: project.id })).body.data.invitations).toEqual([]);
    // Cancelling again: nothing is pending.
    expect((await api().post('/api/team-members/cancel-invitation').set(owner.auth).send({ id_project: project.id, id_user: sent.body.data.id_user })).status).toBe(404);
  });
});
