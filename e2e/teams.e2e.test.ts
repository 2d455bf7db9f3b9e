import type { Browser, Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { User } from '@sitewalk/core/db';
import { api } from '../api/test/helpers.js';
import { addMember, newProject } from '../api/test/project-helpers.js';
import { test } from './browser.js';
import { createUser, uniqueName, waitForMail } from './support/backend.js';
import { ACTION_TIMEOUT, EVENTUALLY, expectSignedInLayout, signIn } from './support/ui.js';

/** A second person at another computer: a browser context of their own. */
async function otherBrowser(browser: Browser, baseUrl: string) {
  const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1280, height: 800 }, locale: 'en-US' });
  await context.addInitScript(() => localStorage.setItem('onboardingCompleted', 'true'));
  const page = await context.newPage();
  page.setDefaultTimeout(ACTION_TIMEOUT);
  return { context, page };
}

const teamCard = (page: Page) => page.getByTestId('team-card');
const toasts = (page: Page) => page.locator('.Toastify').innerText();

describe('teams in the browser', () => {
  test('a join request reaches the owner live in another browser; the owner accepts it and the person sees the project', async ({ page, browser, baseUrl }) => {
    const owner = await createUser({ first_name: 'Huda', last_name: 'Nasser' });
    const asker = await createUser({ first_name: 'Karim', last_name: 'Aziz' });
    const project = await newProject(owner, { name: uniqueName('Marka Depot') });

    await signIn(page, { username: owner.user.username, password: owner.password });
    await page.goto(`/project/${project.id}`);
    await expect.poll(() => teamCard(page).getByTestId('no-join-requests').isVisible(), EVENTUALLY).toBe(true);
    // Live updates are connected before the request is sent.
    await page.getByTestId('live-badge').waitFor();

    const other = await otherBrowser(browser, baseUrl);
    try {
      await signIn(other.page, { username: asker.user.username, password: asker.password });
      await other.page.goto('/join');
      await other.page.getByLabel('Project code', { exact: true }).fill(project.project_code);
      await other.page.getByRole('button', { name: 'Send join request' }).click();
      await expect.poll(() => toasts(other.page), EVENTUALLY).toContain('Join request sent. The project owner will answer it.');
      await expect.poll(() => other.page.getByTestId('my-join-request').innerText(), EVENTUALLY).toContain('Waiting for an answer');

      // The owner's screen shows it without a reload.
      const request = teamCard(page).getByTestId('join-request');
      await expect.poll(() => request.innerText().catch(() => ''), EVENTUALLY).toContain('Karim Aziz');
      await request.getByRole('button', { name: 'Accept' }).click();
      await expect.poll(() => teamCard(page).getByTestId('team-member').filter({ hasText: 'Karim Aziz' }).count(), EVENTUALLY).toBe(1);

      await other.page.goto(`/project/${project.id}`);
      await expect.poll(() => other.page.getByTestId('project-name').innerText().catch(() => ''), EVENTUALLY).toBe(project.name);
      // A viewer: the switches are there to read, not to change.
      const self = teamCard(other.page).getByTestId('team-member').filter({ hasText: 'Karim Aziz' });
      expect(await self.getByRole('switch', { name: 'Upload files' }).isDisabled()).toBe(true);
      expect(await self.getByRole('switch', { name: 'View' }).isChecked()).toBe(true);
    } finally {
      await other.context.close();
    }
  });

  test('the owner sets permissions with the switches and removes a member after confirming', async ({ page }) => {
    const owner = await createUser();
    const member = await createUser({ first_name: 'Dana', last_name: 'Qasem' });
    const project = await newProject(owner);
    await addMember(project.id, member, 'viewer');

    await signIn(page, { username: owner.user.username, password: owner.password });
    await page.goto(`/project/${project.id}`);
    const row = teamCard(page).getByTestId('team-member').filter({ hasText: 'Dana Qasem' });
    await row.getByRole('switch', { name: 'Upload files' }).check();
    await expect.poll(() => toasts(page), EVENTUALLY).toContain('Permissions updated.');
    expect(await row.getByRole('switch', { name: 'Upload files' }).isChecked()).toBe(true);
    const perms = await api().get('/api/team-members/permissions').set(member.auth).query({ id_project: project.id });
    expect(perms.body.data.permissions).toMatchObject({ upload: true, edit: false });

    await row.getByRole('button', { name: 'Remove' }).click();
    const dialog = page.getByRole('dialog');
    expect(await dialog.innerText()).toContain('Dana Qasem will no longer see this project.');
    // Cancelling keeps the member.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await row.count()).toBe(1);
    await row.getByRole('button', { name: 'Remove' }).click();
    await page.getByTestId('confirm-button').click();
    await expect.poll(() => row.count(), EVENTUALLY).toBe(0);
    expect((await api().get(`/api/projects/${project.id}`).set(member.auth)).status).toBe(404);
  });

  test('an invitation to a new e-mail goes through the mail: the person activates an account and accepts from My invitations', async ({ page, browser, baseUrl }) => {
    const owner = await createUser({ first_name: 'Maha', last_name: 'Jaber' });
    const project = await newProject(owner, { name: uniqueName('Sweifieh Offices') });
    const email = `${uniqueName('newcomer')}@example.test`;

    await signIn(page, { username: owner.user.username, password: owner.password });
    await page.goto(`/project/${project.id}`);
    // A refusal takes the hint's place, so the hint never reads as contradicting it; typing brings the hint back.
    const hint = teamCard(page).getByTestId('invite-hint');
    await expect.poll(() => hint.innerText(), EVENTUALLY).toBe('People without an account get an e-mail to create one.');
    await teamCard(page).getByPlaceholder('E-mail address').fill('not-an-address');
    await teamCard(page).getByRole('button', { name: 'Invite', exact: true }).click();
    await expect.poll(() => teamCard(page).getByTestId('invite-error').innerText(), EVENTUALLY).toBe('Invalid email format');
    expect(await hint.count()).toBe(0);
    await teamCard(page).getByPlaceholder('E-mail address').fill(email);
    await expect.poll(() => hint.count(), EVENTUALLY).toBe(1);
    await teamCard(page).getByLabel('Role', { exact: true }).selectOption('editor');
    await teamCard(page).getByRole('button', { name: 'Invite', exact: true }).click();
    await expect.poll(() => teamCard(page).getByTestId('pending-invitations').innerText().catch(() => ''), EVENTUALLY).toContain(email);

    const mail = await waitForMail(email);
    expect(mail.subject).toContain(`join the project ${project.name}`);
    const link = /(\S+\/activate\?token=[A-Za-z0-9_%-]+)/.exec(mail.text)![1];

    const other = await otherBrowser(browser, baseUrl);
    try {
      await other.page.goto(new URL(link).pathname + new URL(link).search);
      const username = uniqueName('newcomer');
      // The labels of required fields end with a mark.
      await other.page.getByRole('textbox', { name: /^Username/ }).fill(username);
      await other.page.getByLabel(/^Password/).fill('joining the site 1');
      await other.page.getByLabel(/^Confirm password/).fill('joining the site 1');
      await other.page.getByRole('button', { name: 'Activate account' }).click();
      await other.page.waitForURL((u) => u.pathname === '/login', { timeout: 15_000 }).catch(() => undefined);
      // The site asks every account for a first name before anything else (the profile guard); this test is not about that form.
      await User.query().patch({ first_name: 'Sara' }).whereRaw('lower(email) = ?', [email]);
      await signIn(other.page, { username, password: 'joining the site 1' });
      await expectSignedInLayout(other.page);
      await other.page.goto('/invitations');
      const invitation = other.page.getByTestId('invitation');
      await expect.poll(() => invitation.innerText().catch(() => ''), EVENTUALLY).toContain(project.name);
      expect(await invitation.innerText()).toContain('Maha Jaber invited you as Editor.');
      await invitation.getByRole('button', { name: 'Accept' }).click();
      await expect.poll(() => other.page.getByTestId('invitations-empty').isVisible(), EVENTUALLY).toBe(true);
      await other.page.goto(`/project/${project.id}`);
      await expect.poll(() => other.page.getByTestId('project-name').innerText().catch(() => ''), EVENTUALLY).toBe(project.name);
    } finally {
      await other.context.close();
    }
    // The owner's card moves the person from invited to member, live.
    await expect.poll(() => teamCard(page).getByTestId('team-member').count(), EVENTUALLY).toBe(2);
  });
});
