import fs from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect } from 'vitest';
import { test } from './browser.js';
import { createUser } from './support/backend.js';
import { EVENTUALLY, signIn } from './support/ui.js';

describe('the open API', () => {
  test('a user creates a read key in the profile, copies it once, a tool reads with it and cannot write, and revoking ends it', async ({ page, baseUrl }) => {
    const { user, password } = await createUser();
    await signIn(page, { username: user.username, password });
    await page.waitForURL('**/dashboard');
    await page.goto('/profile');
    const card = page.getByRole('region', { name: 'API keys' });
    await expect.poll(() => card.getByText('No API keys yet. Create one to connect your own tools.').isVisible(), EVENTUALLY).toBe(true);

    // Nameless: refused in place, in words.
    await card.getByRole('button', { name: 'Create key' }).click();
    await expect.poll(() => card.getByText('Give the key a name.').isVisible(), EVENTUALLY).toBe(true);

    await card.getByLabel('Key name').fill('Weekly report');
    await card.getByLabel('Access').selectOption('read');
    await card.getByRole('button', { name: 'Create key' }).click();
    const once = card.getByLabel('New API key');
    await expect.poll(() => once.isVisible(), EVENTUALLY).toBe(true);
    const key = await once.inputValue();
    expect(key).toMatch(/^sw_[0-9a-f]{12}_/);
    await card.getByRole('button', { name: 'I have copied it' }).click();
    await expect.poll(() => once.count(), EVENTUALLY).toBe(0);
    expect(await card.textContent()).not.toContain(key);

    const read = await fetch(`${baseUrl}/api/projects`, { headers: { 'X-Api-Key': key } });
    expect(read.status).toBe(200);
    const write = await fetch(`${baseUrl}/api/projects`, { method: 'POST', headers: { 'X-Api-Key': key, 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'x' }) });
    expect(write.status).toBe(403);

    await page.reload();
    await expect.poll(() => card.getByText(/Last used/).isVisible(), EVENTUALLY).toBe(true);
    await card.getByRole('button', { name: 'Revoke Weekly report' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
    await expect.poll(() => card.getByText('Revoked', { exact: true }).isVisible(), EVENTUALLY).toBe(true);
    expect((await fetch(`${baseUrl}/api/projects`, { headers: { 'X-Api-Key': key } })).status).toBe(401);
  });

  test('/api/docs shows every call from this server alone', async ({ page, baseUrl }) => {
    const elsewhere: string[] = [];
    page.on('request', (r) => {
      if (!r.url().startsWith(baseUrl) && !r.url().startsWith('data:')) elsewhere.push(r.url());
    });
    await page.goto('/api/docs');
    await expect.poll(() => page.getByText('SiteWalk API', { exact: false }).first().isVisible(), EVENTUALLY).toBe(true);
    // Operations of every part of the API are listed, down to the newest.
    await expect.poll(() => page.getByText('Sign in with username (or e-mail) and password').isVisible(), EVENTUALLY).toBe(true);
    // The page renders the parts of its two hundred operations as they scroll into view: down to the newest.
    const newest = page.getByText('Revoke a personal API key');
    const scrolledTo = async () => {
      await page.mouse.wheel(0, 4000);
      return newest.isVisible();
    };
    await expect.poll(scrolledTo, { ...EVENTUALLY, timeout: 40_000 }).toBe(true);
    expect(elsewhere).toEqual([]);
  });

  test('the API keys card reads well on a 360 px phone, in Arabic and dark, for axe-core too', async ({ page }) => {
    const { user, password } = await createUser();
    await page.setViewportSize({ width: 360, height: 740 });
    await signIn(page, { username: user.username, password });
    await page.waitForURL('**/dashboard');
    await page.evaluate(() => {
      sessionStorage.setItem('language', 'ar');
      localStorage.setItem('ls_language', 'ar');
      localStorage.setItem('darkMode', 'true');
    });
    await page.goto('/profile');
    const card = page.getByTestId('api-keys-card');
    await expect.poll(() => page.evaluate(() => [document.documentElement.dir, document.documentElement.getAttribute('data-bs-theme')].join(' ')), EVENTUALLY).toBe('rtl dark');
    await card.getByLabel('اسم المفتاح').fill('أداة التقارير');
    await card.getByRole('button', { name: 'إنشاء مفتاح' }).click();
    await expect.poll(() => card.getByTestId('api-key-once').isVisible(), EVENTUALLY).toBe(true);
    await expect.poll(() => card.getByTestId('api-keys').isVisible(), EVENTUALLY).toBe(true);
    // Nothing wider than the phone.
    expect(await card.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);

    const axe = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
    await page.evaluate(`${axe};0`);
    const serious = await page.evaluate(() =>
      (window as unknown as { axe: { run: (ctx: string, o: object) => Promise<{ violations: { id: string; impact: string | null }[] }> } }).axe
        .run('[data-testid="api-keys-card"]', { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21aa', 'wcag22aa'] } })
        .then((r) => r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)),
    );
    expect(serious).toEqual([]);
  });
});
