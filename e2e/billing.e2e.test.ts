import type { Page } from 'playwright-core';
import { describe, expect, inject } from 'vitest';
import { api } from '../api/test/helpers.js';
import { BANK, PAYPAL_CLIENT, PAYPAL_SECRET, sellablePlan } from '../api/test/billing-helpers.js';
import { test } from './browser.js';
import { createUser, waitForMail, withSettings } from './support/backend.js';
import { EVENTUALLY, signIn } from './support/ui.js';

const rowStatus = (page: Page, id: number) => page.getByTestId(`invoice-row-${id}`).getByTestId('invoice-status').innerText();

describe('billing', () => {
  test('a user pays with PayPal through the approval page, sees the plan extended and the invoice, and a bank transfer marked paid shows up live', async ({ page, browser, baseUrl }) => {
    const admin = await createUser({ super_admin: true });
    const user = await createUser();
    const plan = await sellablePlan(admin);
    const settings = { paypal_enabled: true, paypal_client_id: PAYPAL_CLIENT, paypal_client_secret: PAYPAL_SECRET, tax_rate: 19, invoice_seller_name: 'SiteWalk Ltd', ...BANK };
    await withSettings(settings, async () => {
      await signIn(page, { username: user.user.username, password: user.password });
      await page.goto(`/checkout?plan=${plan.id}`);
      // The total with tax is the server's: 49.90 + 19 %.
      await expect.poll(() => page.getByTestId('checkout-total').innerText(), EVENTUALLY).toContain('59.38');
      await page.getByTestId('pay-paypal').click();

      // PayPal's page (the stand-in): approve, and PayPal sends the browser back to SiteWalk, which captures.
      await page.waitForURL(`${inject('paypalStandInUrl')}/checkoutnow**`);
      await page.getByRole('button', { name: 'Approve' }).click();
      await page.waitForURL('**/billing');
      await expect.poll(() => page.locator('.Toastify').innerText(), EVENTUALLY).toContain('Payment received.');
      await expect.poll(() => page.getByTestId('billing-plan-name').innerText(), EVENTUALLY).toBe(plan.name);
      const paid = (await api().get('/api/invoices').set(user.auth)).body.data[0] as { id: number; number: string; period_end: string };
      expect(await page.getByTestId('billing-plan-expiry').textContent()).toBe(paid.period_end);
      await expect.poll(() => rowStatus(page, paid.id), EVENTUALLY).toBe('Paid');
      // The worker makes the PDF; the page shows its link once it is there, and the mail carries it.
      await expect.poll(() => page.getByTestId(`invoice-row-${paid.id}`).getByRole('link', { name: 'PDF' }).isVisible(), EVENTUALLY).toBe(true);
      const mail = await waitForMail(user.user.email, (m) => m.subject.includes(`Invoice ${paid.number}`));
      expect(mail.subject).toContain(paid.number);

      // A bank transfer, marked paid by the administrator in another browser after confirming, turns Paid on this open page.
      const transfer = (await api().post('/api/billing/checkout').set(user.auth).send({ id_plan: plan.id, period: 'month', method: 'bank_transfer' })).body.data.invoice as { id: number; reference: string };
      await expect.poll(() => rowStatus(page, transfer.id), EVENTUALLY).toBe('Pending');
      const adminContext = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1280, height: 800 }, locale: 'en-US' });
      await adminContext.addInitScript(() => localStorage.setItem('onboardingCompleted', 'true'));
      try {
        const adminPage = await adminContext.newPage();
        await signIn(adminPage, { username: admin.user.username, password: admin.password });
        await adminPage.goto(`/invoices?user_id=${user.user.id}&status=pending`);
        const row = adminPage.getByTestId(`invoice-row-${transfer.id}`);
        await expect.poll(() => row.innerText(), EVENTUALLY).toContain(transfer.reference);
        await row.getByTestId('mark-paid').click();
        const dialog = adminPage.getByRole('dialog');
        await expect.poll(() => dialog.innerText(), EVENTUALLY).toContain(`Mark ${transfer.reference} of ${user.user.username} as paid?`);
        await dialog.getByRole('button', { name: 'Mark paid' }).click();
        await expect.poll(() => adminPage.locator('.Toastify').innerText(), EVENTUALLY).toContain('Invoice marked as paid.');
      } finally {
        await adminContext.close();
      }
      await expect.poll(() => rowStatus(page, transfer.id), EVENTUALLY).toBe('Paid');
    });
    // Sign-in, PayPal's page and back, the worker's PDF and mail: a few seconds each on a busy two-core machine.
  }, 120_000);
});
