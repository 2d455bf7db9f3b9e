import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import sharp from 'sharp';
import { db } from '@sitewalk/core/db';
import { withoutIsolates } from '@sitewalk/proto';
import { newProject } from '../api/test/project-helpers.js';
import { api } from '../api/test/helpers.js';
import { test } from './browser.js';
import { createUser, uniqueName } from './support/backend.js';
import { planWithMember } from './support/plans-fixtures.js';
import { EVENTUALLY, expectSignedInLayout, sidebar, signIn } from './support/ui.js';

const toasts = (page: Page) => page.locator('.Toastify').innerText();

/** Fills the tier form of /tiers and submits it. */
async function addTier(page: Page, t: { name: string; price: string; minArea: string; maxArea: string; maxBuildings: string; maxFloors: string }) {
  const form = page.getByTestId('tier-form');
  await form.getByLabel('Name').fill(t.name);
  await form.getByLabel('Price per project and month').fill(t.price);
  await form.getByLabel('Area from (m²)').fill(t.minArea);
  await form.getByLabel('Area up to (m², not included)').fill(t.maxArea);
  await form.getByLabel('Buildings to').fill(t.maxBuildings);
  await form.getByLabel('Floors to').fill(t.maxFloors);
  await form.getByRole('button', { name: 'Add tier' }).click();
}

describe('plans and tiers screens', () => {
  test('an administrator creates a tier, is refused an overlapping one, finds the tier of a size and reads the usage charts with their tables', async ({ page }) => {
    // Tiers are one list for the site; this test starts from none.
    await db()('project_tiers').delete();
    const admin = await createUser({ super_admin: true });
    await newProject(admin, { area: 120, num_buildings: 1, num_floors: 2 });
    await newProject(admin, { area: 300, num_buildings: 2, num_floors: 4 });
    await signIn(page, { username: admin.user.username, password: admin.password });
    await expectSignedInLayout(page);

    await sidebar(page).getByRole('link', { name: 'Project Tiers' }).click();
    await page.waitForURL('**/tiers');
    await expect.poll(() => page.getByTestId('tiers-empty').isVisible(), EVENTUALLY).toBe(true);

    // A price far above the project counts: on one shared axis the count bars would vanish under the cost.
    await addTier(page, { name: 'Small', price: '1000', minArea: '0', maxArea: '500', maxBuildings: '2', maxFloors: '5' });
    await expect.poll(() => toasts(page), EVENTUALLY).toContain('Tier created successfully!');
    await expect.poll(() => page.getByTestId('tiers-table').innerText(), EVENTUALLY).toContain('Small');

    // Overlapping ranges are refused with the server's sentence naming the other tier.
    await addTier(page, { name: 'Clash', price: '20', minArea: '400', maxArea: '900', maxBuildings: '2', maxFloors: '5' });
    await expect.poll(() => toasts(page), EVENTUALLY).toContain('overlap the tier "Small"');
    expect(await page.getByTestId('tiers-table').locator('tbody tr').count()).toBe(1);
    // Meeting Small exactly at 500 m² is fine.
    await page.getByTestId('tier-form').getByLabel('Name').fill('Large');
    await page.getByTestId('tier-form').getByLabel('Area from (m²)').fill('500');
    await page.getByTestId('tier-form').getByLabel('Area up to (m², not included)').fill('5000');
    await page.getByTestId('tier-form').getByRole('button', { name: 'Add tier' }).click();
    await expect.poll(() => page.getByTestId('tiers-table').locator('tbody tr').count(), EVENTUALLY).toBe(2);

    const find = page.getByTestId('find-tier-form');
    await find.getByLabel('Area (m²)').fill('500');
    await find.getByLabel('Buildings').fill('1');
    await find.getByLabel('Floors').fill('1');
    await find.getByRole('button', { name: 'Find tier' }).click();
    await expect.poll(() => page.getByTestId('find-tier-answer').innerText(), EVENTUALLY).toContain('This project is in the tier "Large"');
    await find.getByLabel('Area (m²)').fill('9000');
    await find.getByRole('button', { name: 'Find tier' }).click();
    await expect.poll(() => page.getByTestId('find-tier-answer').innerText(), EVENTUALLY).toContain('No tier covers a project of 9000 m²');

    // The charts draw, and each has the same numbers in a table beside it.
    const month = page.getByTestId('usage-month-chart');
    await expect.poll(() => month.locator('canvas').count(), EVENTUALLY).toBe(1);
    expect(await month.locator('canvas').getAttribute('aria-label')).toMatch(/^Chart: Projects per tier in/);
    const smallRow = month.locator('tbody tr', { hasText: 'Small' });
    await expect.poll(() => smallRow.count(), EVENTUALLY).toBe(1);
    expect(Number((await smallRow.locator('td').first().innerText()).trim())).toBeGreaterThanOrEqual(2);
    const box = await month.locator('canvas').boundingBox();
    expect(box && box.width > 100 && box.height > 100).toBe(true);
    // The project count has an axis of its own: its bar (the first colour) stands tall beside the cost's, not a sliver.
    const shot = await sharp(await month.locator('canvas').screenshot()).raw().toBuffer({ resolveWithObject: true });
    let countBarPixels = 0;
    for (let i = 0; i < shot.data.length; i += shot.info.channels) {
      if (Math.abs(shot.data[i] - 0x29) + Math.abs(shot.data[i + 1] - 0x87) + Math.abs(shot.data[i + 2] - 0xf2) < 24) countBarPixels++;
    }
    expect(countBarPixels).toBeGreaterThan(1500);
    const year = page.getByTestId('usage-year-chart');
    await expect.poll(() => year.locator('tbody tr').count(), EVENTUALLY).toBe(12);
    expect(await year.locator('canvas').count()).toBe(1);
    await expect.poll(() => page.getByTestId('admin-stats-chart').locator('tbody tr', { hasText: 'Small' }).count(), EVENTUALLY).toBe(1);

    // Deleting asks first.
    await page.getByRole('button', { name: 'Delete Large' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => page.getByTestId('tiers-table').locator('tbody tr').count(), EVENTUALLY).toBe(1);
  });

  test('an administrator creates a plan and gives it to a user, who invites a colleague into it and removes them after confirming', async ({ page, browser, baseUrl }) => {
    const admin = await createUser({ super_admin: true });
    const owner = await createUser();
    const colleague = await createUser();
    await signIn(page, { username: admin.user.username, password: admin.password });
    await expectSignedInLayout(page);
    await sidebar(page).getByRole('link', { name: 'Plans' }).click();
    await page.waitForURL('**/plans');
    await page.getByRole('link', { name: 'New plan' }).click();
    await page.waitForURL('**/editplan/new');
    const name = uniqueName('Studio');
    await page.getByLabel('Name').fill(name);
    await page.getByLabel('Price per month').fill('29.90');
    await page.getByLabel('Price per year').fill('299');
    await page.getByLabel('Member slots').fill('2');
    await page.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => toasts(page), EVENTUALLY).toContain('Plan created successfully!');
    await page.waitForURL(/\/editplan\/\d+$/);

    await page.getByLabel('Username or e-mail').fill(owner.user.username);
    await page.getByRole('button', { name: 'Give the plan' }).click();
    await expect.poll(() => page.getByTestId('subscription-row').count(), EVENTUALLY).toBe(1);
    expect(await page.getByTestId('subscription-row').innerText()).toContain(owner.user.email);

    // The owner's plan screen: the plan, its slots, the people in it.
    const ownerContext = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1280, height: 800 }, locale: 'en-US' });
    await ownerContext.addInitScript(() => localStorage.setItem('onboardingCompleted', 'true'));
    const ownerPage = await ownerContext.newPage();
    try {
      await signIn(ownerPage, { username: owner.user.username, password: owner.password });
      await ownerPage.goto('/profile');
      const card = ownerPage.getByTestId('plan-card');
      await expect.poll(() => card.getByTestId('plan-name').innerText(), EVENTUALLY).toBe(name);
      expect(await card.getByTestId('plan-slots').innerText()).toBe('0 of 2 used');
      expect(await card.getByTestId('plan-members-empty').isVisible()).toBe(true);

      await card.getByLabel('Invite by e-mail').fill(colleague.user.email);
      await card.getByRole('button', { name: 'Invite' }).click();
      await expect.poll(() => toasts(ownerPage), EVENTUALLY).toContain(`An invitation was sent to ${colleague.user.email}.`);
      await expect.poll(() => card.getByTestId('plan-slots').innerText(), EVENTUALLY).toBe('1 of 2 used');
      expect(await card.getByTestId('plan-members').innerText()).toContain('Invitation pending');

      // The colleague joins only by accepting, on their own profile.
      const colleagueContext = await browser.newContext({ baseURL: baseUrl, viewport: { width: 360, height: 740 }, locale: 'en-US' });
      await colleagueContext.addInitScript(() => localStorage.setItem('onboardingCompleted', 'true'));
      try {
        const colleaguePage = await colleagueContext.newPage();
        await signIn(colleaguePage, { username: colleague.user.username, password: colleague.password });
        await colleaguePage.goto('/profile');
        const waiting = colleaguePage.getByTestId('plan-invitations');
        await expect.poll(() => waiting.innerText(), EVENTUALLY).toContain(`You are invited to join the plan "${name}".`);
        await waiting.getByRole('button', { name: 'Accept' }).click();
        await expect.poll(() => toasts(colleaguePage), EVENTUALLY).toContain(`You joined the plan "${name}".`);
        await expect.poll(() => colleaguePage.getByTestId('plan-name').innerText(), EVENTUALLY).toBe(name);
      } finally {
        await colleagueContext.close();
      }
      await ownerPage.reload();
      await expect.poll(() => card.getByTestId('plan-members').innerText(), EVENTUALLY).toContain('Joined');

      await card.getByTestId('plan-members').getByRole('button', { name: 'Remove' }).click();
      const dialog = ownerPage.getByRole('dialog');
      await expect.poll(() => dialog.innerText(), EVENTUALLY).toContain('Their slot becomes free.');
      await dialog.getByRole('button', { name: 'Remove' }).click();
      await expect.poll(() => card.getByTestId('plan-slots').innerText(), EVENTUALLY).toBe('0 of 2 used');
    } finally {
      await ownerContext.close();
    }
  });

  test('an administrator opens a plan member, makes them a manager and removes them after confirming', async ({ page }) => {
    const admin = await createUser({ super_admin: true });
    const owner = await createUser();
    const { member, plan } = await planWithMember(admin, owner);
    await signIn(page, { username: admin.user.username, password: admin.password });
    await page.goto(`/editmember/${member.id}`);
    await expect.poll(() => page.getByTestId('member-name').innerText(), EVENTUALLY).toContain(member.email);
    expect(await page.getByText(plan.name).count()).toBeGreaterThan(0);
    await page.getByLabel('Role in the plan').selectOption('manager');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(() => toasts(page), EVENTUALLY).toContain('Member updated.');
    await page.getByRole('button', { name: 'Remove from the plan' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
    await page.waitForURL('**/plans');
    expect((await db()('plan_members').where({ id: member.id })).length).toBe(0);
    // A member id that does not exist is the 404 page.
    await page.goto('/editmember/999999');
    await expect.poll(() => page.getByText(/not found/i).count(), EVENTUALLY).toBeGreaterThan(0);
  });

  test('a user at the project limit of their plan sees it on the Plan card, and creating one more shows why it is refused, in English and in Arabic', async ({ page }) => {
    const admin = await createUser({ super_admin: true });
    const owner = await createUser();
    const created = await api().post('/api/plans').set(admin.auth).send({ name: uniqueName('Solo'), price: 5, period: 'month', member_slots: 0, max_projects: 1, max_storage_mb: 50 });
    expect(created.status).toBe(201);
    const planName = created.body.data.name as string;
    await api().post(`/api/plans/${created.body.data.id}/subscriptions`).set(admin.auth).send({ user: owner.user.username, expires_at: '2099-12-31' }).expect(201);
    await newProject(owner, { name: 'The one project' });

    await signIn(page, { username: owner.user.username, password: owner.password });
    await page.goto('/profile');
    const card = page.getByTestId('plan-card');
    await expect.poll(() => card.getByTestId('plan-usage-projects').innerText(), EVENTUALLY).toBe('1 of 1');
    expect(await card.getByTestId('plan-usage-storage').innerText()).toBe('0 MB of 50 MB');
    expect(await card.getByTestId('plan-usage-video-minutes').innerText()).toBe('0 min, no limit');

    await page.goto('/editproject/new');
    await page.getByLabel('Project name').fill('One too many');
    await page.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => toasts(page), EVENTUALLY).toContain(`Your plan "${planName}" allows 1 project(s) and 1 already exist. Delete a project or ask for a larger plan.`);
    expect(new URL(page.url()).pathname).toBe('/editproject/new');

    await page.evaluate(() => {
      sessionStorage.setItem('language', 'ar');
      localStorage.setItem('ls_language', 'ar');
    });
    await page.reload();
    await expect.poll(() => page.evaluate(() => document.documentElement.getAttribute('dir')), EVENTUALLY).toBe('rtl');
    await page.getByLabel('اسم المشروع').fill('One too many');
    await page.getByRole('button', { name: 'إنشاء' }).click();
    // Read as a person sees it (the plan's name and the counts are isolated runs in the Arabic sentence).
    await expect.poll(async () => withoutIsolates(await toasts(page)), EVENTUALLY).toContain(`تسمح خطتك "${planName}" بعدد 1 من المشاريع، ويوجد منها 1 بالفعل.`);
    expect(await db()('projects').where({ id_owner: owner.user.id }).count<{ n: number }[]>({ n: '*' }).first().then((r) => Number(r?.n))).toBe(1);
  });
});
