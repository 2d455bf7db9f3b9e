import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import type { Settings } from '@sitewalk/proto';
import { User } from '@sitewalk/core/db';
import { getSettings, saveSettings } from '@sitewalk/core/services/settings.service.js';
import { saveScreenshot, test } from './browser.js';
import { admin, createUser, uniqueName, waitForMail } from './support/backend.js';
import { EVENTUALLY, expectSignedInLayout, sidebar, signIn } from './support/ui.js';

/**
 * The super administrator's screens: /settings (every setting of SPEC §3,
 * applied to the app at once) and /users with /edituser/{id} (create,
 * invite, edit, set a password, delete).
 */

// The settings are one shared set: what these tests change is put back afterwards.
const TOUCHED: (keyof Settings)[] = ['name', 'theme_color', 'enable_registration', 'smtp_from_email', 'smtp_port', 'smtp_valid', 'dark_mode', 'languages_enabled'];
let before: Partial<Settings>;
beforeAll(async () => {
  const s = await getSettings();
  before = Object.fromEntries(TOUCHED.map((k) => [k, s[k]])) as Partial<Settings>;
  // The screens these tests look at need the language switcher and dark mode offered.
  await saveSettings({ dark_mode: true, languages_enabled: true });
});
afterAll(async () => {
  await saveSettings(before);
});

/** A screenshot once the page's fade-in is over (the screens are checked by eye). */
async function screenshot(page: Page, name: string) {
  // From the top: a page scrolled to a field pictures its sticky bars mid-page.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForFunction(() => (document.querySelector('.sw-page')?.getAnimations() ?? []).every((a) => a.playState !== 'running'));
  await saveScreenshot(page, name);
}

const notFound = (page: Page) => page.getByRole('heading', { level: 1, name: 'Page not found' });
const toast = (page: Page, text: string) => page.locator('.Toastify').getByText(text, { exact: true });

async function signInAsAdmin(page: Page) {
  const a = admin();
  await signIn(page, { username: a.username, password: a.password });
  await expectSignedInLayout(page);
}

/** A visitor in a browser of their own (no sign-in, no cached settings). */
async function visitor(browser: Browser, baseUrl: string) {
  const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1280, height: 800 } });
  return { context, page: await context.newPage() };
}

describe('settings', () => {
  test('a super admin renames the site and recolours it: the page title and the sidebar follow at once', async ({ page }) => {
    await signInAsAdmin(page);
    // In the sidebar's Settings group.
    await sidebar(page).getByRole('link', { name: 'Settings', exact: true }).click();
    await page.waitForURL('**/settings');
    const oldName = (await getSettings()).name;
    await expect.poll(() => page.title(), EVENTUALLY).toBe(`Settings | ${oldName}`);

    const name = `Site ${uniqueName('w')}`;
    await page.getByLabel('Site name', { exact: true }).fill(name);
    await page.getByLabel('Theme colour', { exact: true }).fill('#aa3355');
    // The swatch beside it is a real swatch, in that colour.
    const swatch = page.getByTestId('theme-colour-swatch');
    await expect.poll(async () => (await swatch.boundingBox())?.width ?? 0, EVENTUALLY).toBeGreaterThanOrEqual(40);
    const shot = await sharp(await swatch.screenshot()).raw().toBuffer({ resolveWithObject: true });
    const at = (Math.floor(shot.info.height / 2) * shot.info.width + Math.floor(shot.info.width / 2)) * shot.info.channels;
    const [r, g, b] = shot.data.subarray(at, at + 3);
    expect(Math.max(Math.abs(r - 170), Math.abs(g - 51), Math.abs(b - 85)), `swatch shows rgb(${r}, ${g}, ${b})`).toBeLessThanOrEqual(3);
    await expect.poll(() => page.getByTestId('settings-unsaved').textContent(), EVENTUALLY).toBe('Unsaved changes: 2');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(() => toast(page, 'Settings updated successfully!').isVisible(), EVENTUALLY).toBe(true);

    // Applied without a reload: document title, sidebar brand and colour.
    await expect.poll(() => page.title(), EVENTUALLY).toBe(`Settings | ${name}`);
    await expect.poll(() => page.getByRole('complementary').getByText(name, { exact: true }).isVisible(), EVENTUALLY).toBe(true);
    const sidebarBackground = () => page.getByRole('complementary').evaluate((el) => getComputedStyle(el).backgroundImage);
    await expect.poll(sidebarBackground, EVENTUALLY).toContain('rgb(170, 51, 85)');
    expect(await page.getByTestId('settings-unsaved').textContent()).toBe('All changes saved');
    expect(await getSettings()).toMatchObject({ name, theme_color: '#aa3355' });
    await screenshot(page, 'admin-settings-branding');

    // Every other page has it too, and a reload keeps it.
    await page.goto('/dashboard');
    await expectSignedInLayout(page);
    await expect.poll(() => page.title(), EVENTUALLY).toBe(`Dashboard | ${name}`);
    await expect.poll(sidebarBackground, EVENTUALLY).toContain('rgb(170, 51, 85)');
  });

  test('turning on registration makes /register reachable for visitors', async ({ page, browser, baseUrl }) => {
    await saveSettings({ enable_registration: false });
    const guest = await visitor(browser, baseUrl);
    try {
      await guest.page.goto('/register');
      await expect.poll(() => notFound(guest.page).isVisible(), EVENTUALLY).toBe(true);

      await signInAsAdmin(page);
      await page.goto('/settings?tab=registration');
      const registration = page.getByRole('switch', { name: 'People may register themselves' });
      expect(await registration.isChecked()).toBe(false);
      await registration.check();
      await page.getByRole('button', { name: 'Save changes' }).click();
      await expect.poll(() => toast(page, 'Settings updated successfully!').isVisible(), EVENTUALLY).toBe(true);
      expect((await getSettings()).enable_registration).toBe(true);

      // A new visitor (no settings cached yet) finds the sign-up form.
      await guest.page.evaluate(() => localStorage.clear());
      await guest.page.goto('/register');
      await expect.poll(() => guest.page.getByRole('button', { name: 'Create account' }).isVisible(), EVENTUALLY).toBe(true);
      expect(await notFound(guest.page).count()).toBe(0);
    } finally {
      await guest.context.close();
      await saveSettings({ enable_registration: false });
    }
  });

  test('secrets show as the placeholder and are kept when other settings are saved; linking needs a client id first', async ({ page }) => {
    await saveSettings({ adsk_secret: 'the-stored-adsk-secret', adsk_client: '' });
    await signInAsAdmin(page);
    await page.goto('/settings?tab=integration');
    const secret = page.getByLabel('Client secret', { exact: true });
    await expect.poll(() => secret.inputValue(), EVENTUALLY).toBe('********');
    expect(await page.content()).not.toContain('the-stored-adsk-secret');
    await page.getByRole('switch', { name: 'Let people link their Autodesk account' }).check();
    await page.getByRole('button', { name: 'Save changes' }).click();
    // Without a client id the switch is refused with a sentence next to the field, and nothing is saved.
    await expect
      .poll(() => page.getByText('Enter the Client ID of your Autodesk app before letting people link their accounts.').isVisible(), EVENTUALLY)
      .toBe(true);
    expect((await getSettings()).adsk_enable).toBe(false);
    await page.getByLabel('Client ID', { exact: true }).fill('e2e-client-id');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(() => toast(page, 'Settings updated successfully!').isVisible(), EVENTUALLY).toBe(true);
    expect(await getSettings()).toMatchObject({ adsk_enable: true, adsk_client: 'e2e-client-id', adsk_secret: 'the-stored-adsk-secret' });
    await saveSettings({ adsk_enable: false, adsk_secret: '', adsk_client: '' });
  });

  test('leaving with unsaved changes asks first, and nothing is saved unless asked', async ({ page }) => {
    await signInAsAdmin(page);
    await page.goto('/settings');
    const stored = (await getSettings()).name;
    await page.getByLabel('Site name', { exact: true }).fill(`${stored} (draft)`);
    await sidebar(page).getByRole('link', { name: 'Dashboard' }).click();
    const dialog = page.getByRole('dialog', { name: 'Leave without saving?' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => dialog.count(), EVENTUALLY).toBe(0);
    expect(new URL(page.url()).pathname).toBe('/settings');
    expect(await page.getByLabel('Site name', { exact: true }).inputValue()).toBe(`${stored} (draft)`);

    await page.getByRole('button', { name: 'Discard changes' }).click();
    expect(await page.getByLabel('Site name', { exact: true }).inputValue()).toBe(stored);
    await page.getByLabel('Site name', { exact: true }).fill(`${stored} (draft)`);
    await sidebar(page).getByRole('link', { name: 'Dashboard' }).click();
    await dialog.getByRole('button', { name: 'Leave' }).click();
    await page.waitForURL('**/dashboard');
    expect((await getSettings()).name).toBe(stored);
  });

  test('a change of the mail server is checked in the background and the status follows', async ({ page }) => {
    await saveSettings({ smtp_valid: true });
    await signInAsAdmin(page);
    await page.goto('/settings?tab=mail');
    const status = page.getByTestId('smtp-status');
    await expect.poll(() => status.getAttribute('data-state'), EVENTUALLY).toBe('verified');
    await page.getByLabel('Sender address', { exact: true }).fill(`${uniqueName('sender')}@example.test`);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect
      .poll(() => toast(page, 'Settings saved. The mail server is being checked; you will be notified of the result.').isVisible(), EVENTUALLY)
      .toBe(true);
    // One save, one toast: the one that says it is saved and being checked.
    expect(await toast(page, 'Settings updated successfully!').count()).toBe(0);
    // The worker checks the (test) mail server, stores smtp_valid and notifies the administrators.
    await expect.poll(() => status.getAttribute('data-state'), { timeout: 30_000, interval: 250 }).toBe('verified');
    expect((await getSettings()).smtp_valid).toBe(true);
    await screenshot(page, 'admin-settings-mail');
  });

  test('a mail server that does not answer is reported with the reason, and fixing it is verified again', async ({ page }) => {
    await saveSettings({ smtp_valid: true });
    const goodPort = String((await getSettings()).smtp_port);
    await signInAsAdmin(page);
    await page.goto('/settings?tab=mail');
    const status = page.getByTestId('smtp-status');
    await expect.poll(() => status.getAttribute('data-state'), EVENTUALLY).toBe('verified');
    const port = page.getByLabel('Port', { exact: true });
    await port.fill('1');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(() => status.getAttribute('data-state'), { timeout: 30_000, interval: 250 }).toBe('failed');
    // The reason is the one the check sent to the administrators.
    // The site's own name, whatever the administrator called it.
    expect(await status.textContent()).toMatch(/ cannot send e-mail:/);
    expect((await getSettings()).smtp_valid).toBe(false);
    await screenshot(page, 'admin-settings-mail-failed');

    await port.fill(goodPort);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(() => status.getAttribute('data-state'), { timeout: 30_000, interval: 250 }).toBe('verified');
  });

  test('a user who is not a super admin is sent to the dashboard from /settings and /users', async ({ page }) => {
    const { user, password } = await createUser();
    await signIn(page, { username: user.username, password });
    await expectSignedInLayout(page);
    for (const path of ['/settings', '/users', '/edituser/new']) {
      await page.goto(path);
      await page.waitForURL('**/dashboard');
    }
    expect(await sidebar(page).getByRole('link', { name: 'Users' }).count()).toBe(0);
    expect(await sidebar(page).getByRole('link', { name: 'Settings', exact: true }).count()).toBe(0);
  });
});

describe('users', () => {
  test('a super admin creates a user with a password, edits their last name and deletes them', async ({ page }) => {
    await signInAsAdmin(page);
    await sidebar(page).getByRole('link', { name: 'Users' }).click();
    await page.waitForURL('**/users');
    // The administrator's own row cannot be deleted.
    await page.getByRole('searchbox', { name: 'Search users' }).fill(admin().username);
    const ownRow = page.locator(`[data-testid="user-row"][data-username="${admin().username}"]`);
    await ownRow.waitFor();
    expect(await ownRow.getByRole('button', { name: /^Delete/ }).count()).toBe(0);
    // A super administrator (stored role "guest", as the first administrator has) wears one badge: Administrator.
    const other = await createUser({ super_admin: true, role: 'guest' });
    await page.getByRole('searchbox', { name: 'Search users' }).fill(other.user.username);
    const otherRow = page.locator(`[data-testid="user-row"][data-username="${other.user.username}"]`);
    await otherRow.waitFor();
    expect(await otherRow.getByTestId('user-role').allInnerTexts()).toEqual(['Administrator']);
    await page.getByRole('searchbox', { name: 'Search users' }).fill(admin().username);
    await ownRow.waitFor();

    await page.getByRole('link', { name: 'New user' }).click();
    await page.waitForURL('**/edituser/new');
    // What is missing is said before anything is sent; what the server refuses is said too.
    await page.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => page.getByText('Username must be at least 3 characters.').isVisible(), EVENTUALLY).toBe(true);
    expect(await page.getByText('Email is required').isVisible()).toBe(true);
    await page.getByRole('textbox', { name: 'Username', exact: true }).fill(admin().username);
    await page.getByRole('textbox', { name: 'E-mail', exact: true }).fill(`${uniqueName('other')}@example.test`);
    await page.getByRole('radio', { name: 'Set a password now' }).check();
    await page.getByLabel(/^Password/).fill('chosen by admin');
    await page.getByLabel(/^Confirm password/).fill('chosen by admin');
    await page.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => toast(page, 'This username is already taken. Choose another one.').isVisible(), EVENTUALLY).toBe(true);
    expect(new URL(page.url()).pathname).toBe('/edituser/new');

    const username = uniqueName('made');
    await page.getByRole('textbox', { name: 'Username', exact: true }).fill(username);
    await page.getByRole('textbox', { name: 'E-mail', exact: true }).fill(`${username}@example.test`);
    await page.getByLabel('First name', { exact: true }).fill('Nadia');
    await page.getByLabel('Role', { exact: true }).selectOption('editor');
    await page.getByRole('radio', { name: 'Set a password now' }).check();
    await page.getByLabel(/^Password/).fill('chosen by admin');
    await page.getByLabel(/^Confirm password/).fill('chosen by admin');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(/\/edituser\/\d+$/);
    await expect.poll(() => toast(page, 'User created successfully!').isVisible(), EVENTUALLY).toBe(true);
    await expect.poll(() => page.getByTestId('user-created-notice').getAttribute('data-outcome'), EVENTUALLY).toBe('password');
    const created = await User.query().findOne({ username });
    expect(created).toMatchObject({ first_name: 'Nadia', role: 'editor', active: true, super_admin: false });

    // Found in the list by search, then edited.
    await page.goto('/users');
    await page.getByRole('searchbox', { name: 'Search users' }).fill(username);
    await expect.poll(() => page.getByTestId('user-row').count(), EVENTUALLY).toBe(1);
    await page.getByRole('link', { name: 'Edit Nadia' }).click();
    await page.waitForURL(`**/edituser/${created!.id}`);
    await page.getByLabel('Last name', { exact: true }).fill('Haddad');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(() => toast(page, 'User updated successfully!').isVisible(), EVENTUALLY).toBe(true);
    expect((await User.query().findById(created!.id))!.last_name).toBe('Haddad');
    await screenshot(page, 'admin-edit-user');

    // Deleted after a confirmation; the list is where it leads.
    await page.getByRole('button', { name: 'Delete user' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete user' });
    await expect.poll(() => dialog.getByText('Delete "Nadia Haddad"? This cannot be undone.').isVisible(), EVENTUALLY).toBe(true);
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await page.waitForURL((url) => url.pathname === '/users');
    await expect.poll(() => toast(page, 'User deleted successfully!').isVisible(), EVENTUALLY).toBe(true);
    expect(await User.query().findById(created!.id)).toBeUndefined();
  });

  test('a user created without a password is invited by e-mail; the admin can set a password and activate them', async ({ page, browser, baseUrl }) => {
    await saveSettings({ smtp_valid: true });
    await signInAsAdmin(page);
    await page.goto('/edituser/new');
    const username = uniqueName('invited');
    const email = `${username}@example.test`;
    await page.getByRole('textbox', { name: 'Username', exact: true }).fill(username);
    await page.getByRole('textbox', { name: 'E-mail', exact: true }).fill(email);
    await page.getByLabel('First name', { exact: true }).fill('Omar');
    expect(await page.getByRole('radio', { name: 'Send an invitation by e-mail' }).isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(/\/edituser\/\d+$/);
    const notice = page.getByTestId('user-created-notice');
    await expect.poll(() => notice.getAttribute('data-outcome'), EVENTUALLY).toBe('invited');
    expect(await notice.textContent()).toContain(`An invitation was sent to ${email}.`);
    const mail = await waitForMail(email);
    expect(mail.text).toContain('/activate?token=');
    const invited = await User.query().findOne({ username });
    expect(invited!.active).toBe(false);

    // A password set by the administrator, and the account switched on.
    await page.getByLabel(/^New password/).fill('set by the admin');
    await page.getByLabel(/^Confirm new password/).fill('set by the admin');
    await page.getByRole('button', { name: 'Set password' }).click();
    await expect.poll(() => toast(page, 'The password has been changed.').isVisible(), EVENTUALLY).toBe(true);
    await page.getByRole('switch', { name: 'Active' }).check();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(() => toast(page, 'User updated successfully!').isVisible(), EVENTUALLY).toBe(true);

    const person = await visitor(browser, baseUrl);
    try {
      await signIn(person.page, { username, password: 'set by the admin' });
      await expectSignedInLayout(person.page);
    } finally {
      await person.context.close();
    }
  });
});

describe('languages, themes and keyboard', () => {
  test('the settings and users screens are right-to-left and translated', async ({ page }) => {
    const { user, password } = await createUser({ super_admin: true, first_name: 'Rana', last_name: 'Admin' });
    const other = await createUser({ first_name: 'Sami', last_name: 'Khalil' });
    await signIn(page, { username: user.username, password });
    await expectSignedInLayout(page);
    await page.getByRole('button', { name: 'Language' }).click();
    await page.getByRole('button', { name: 'العربية' }).click();
    await expect.poll(() => page.evaluate(() => document.documentElement.dir), EVENTUALLY).toBe('rtl');
    await page.getByRole('button', { name: 'الوضع الداكن' }).click();
    await expect.poll(() => page.evaluate(() => document.documentElement.getAttribute('data-bs-theme')), EVENTUALLY).toBe('dark');

    await page.goto('/settings?tab=mail');
    await expect.poll(() => page.getByRole('heading', { name: 'إعدادات التطبيق' }).isVisible(), EVENTUALLY).toBe(true);
    expect(await page.getByRole('tab', { name: 'خادم البريد' }).getAttribute('aria-selected')).toBe('true');
    await screenshot(page, 'admin-settings-arabic-dark');
    await page.goto('/settings?tab=profile');
    await page.getByRole('switch', { name: '\u2068الرقم الضريبي\u2069 إلزامي' }).waitFor();
    await screenshot(page, 'admin-settings-profile-fields-arabic-dark');

    await page.goto(`/users?search=${encodeURIComponent(other.user.username)}`);
    await expect.poll(() => page.getByTestId('user-row').count(), EVENTUALLY).toBe(1);
    expect(await page.getByRole('columnheader', { name: 'الدور' }).isVisible()).toBe(true);
    await screenshot(page, 'admin-users-arabic-dark');
    await page.getByRole('link', { name: 'تعديل \u2068Sami Khalil\u2069' }).click();
    await page.waitForURL(`**/edituser/${other.user.id}`);
    await expect.poll(() => page.getByRole('heading', { level: 2, name: 'تعديل المستخدم' }).isVisible(), EVENTUALLY).toBe(true);
    expect(await page.getByRole('textbox', { name: 'اسم العائلة' }).inputValue()).toBe('Khalil');
    await screenshot(page, 'admin-edit-user-arabic-dark');
  });

  test('in English and light mode, the sections are tabs a keyboard moves through', async ({ page }) => {
    await signInAsAdmin(page);
    await page.goto('/settings');
    const branding = page.getByRole('tab', { name: 'Branding' });
    await expect.poll(() => branding.getAttribute('aria-selected'), EVENTUALLY).toBe('true');
    await branding.focus();
    await page.keyboard.press('ArrowDown');
    const mail = page.getByRole('tab', { name: 'Mail server' });
    await expect.poll(() => mail.getAttribute('aria-selected'), EVENTUALLY).toBe('true');
    expect(await mail.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.getByRole('tabpanel', { name: 'Mail server' }).getByTestId('smtp-status').waitFor();
    await page.waitForURL('**/settings?tab=mail');
    await screenshot(page, 'admin-settings-mail-light');
    await page.goto('/users');
    await page.getByTestId('user-row').first().waitFor();
    await screenshot(page, 'admin-users-light');
  });
});
