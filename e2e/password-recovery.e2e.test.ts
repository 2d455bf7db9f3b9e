import { describe, expect, inject } from 'vitest';
import { test } from './browser.js';
import { createUser, waitForMail } from './support/backend.js';
import { EVENTUALLY, expectSignedInLayout, loginForm, signIn } from './support/ui.js';

describe('password recovery', () => {
  test('a reset link mailed from /recover lets the user choose a new password and sign in with it', async ({ page }) => {
    const { user } = await createUser();
    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.waitForURL('**/recover');

    await page.getByLabel(/^Username or e-mail/).fill(user.username);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect.poll(() => page.getByRole('status').textContent(), EVENTUALLY).toMatch(/\S/);

    const mail = await waitForMail(user.email, (m) => /reset/i.test(m.subject));
    const link = /https?:\/\/\S+\/reset-password\?token=[^\s"<]+/.exec(mail.text)?.[0];
    expect(link, `no reset link in:\n${mail.text}`).toBeTruthy();
    expect(link!.startsWith(`${inject('baseUrl')}/`)).toBe(true);

    await page.goto(link!);
    const newPassword = 'a brand new passphrase';
    await page.getByLabel(/^New password/).fill(newPassword);
    await page.getByLabel(/^Confirm new password/).fill(newPassword);
    await page.getByRole('button', { name: 'Reset password' }).click();
    await page.waitForURL('**/login');
    await expect.poll(() => page.getByRole('status').textContent(), EVENTUALLY).toMatch(/password/i);

    // The link worked once; now the new password opens the account.
    await signIn(page, { username: user.username, password: newPassword });
    await expectSignedInLayout(page);
  });

  test('the old password no longer works after a reset through the mailed link', async ({ page }) => {
    const { user, password } = await createUser();
    await page.goto('/recover');
    await page.getByLabel(/^Username or e-mail/).fill(user.email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    const mail = await waitForMail(user.email, (m) => /reset/i.test(m.subject));
    const link = /https?:\/\/\S+\/reset-password\?token=[^\s"<]+/.exec(mail.text)![0];
    await page.goto(link);
    await page.getByLabel(/^New password/).fill('another new passphrase');
    await page.getByLabel(/^Confirm new password/).fill('another new passphrase');
    await page.getByRole('button', { name: 'Reset password' }).click();
    await page.waitForURL('**/login');

    const form = loginForm(page);
    await form.username.fill(user.username);
    await form.password.fill(password);
    await form.submit.click();
    await expect.poll(() => page.getByRole('alert').textContent(), EVENTUALLY).toContain('Wrong username or password.');

    // Opening the used link again says it is no longer valid.
    await page.goto(link);
    await expect.poll(() => page.getByRole('alert').textContent(), EVENTUALLY).toMatch(/not valid|expired/i);
  });
});
