import type { Page } from 'playwright-core';
import type { Settings } from '@sitewalk/proto';
import { api } from '../../api/test/helpers.js';
import { BANK, PAYPAL_CLIENT, PAYPAL_SECRET, sellablePlan } from '../../api/test/billing-helpers.js';
import { uniqueName, type TestUser } from './backend.js';

/** PayPal (the stand-in) and bank transfer on, 19 % tax and a seller: what checkout offers. Use with withSettings. */
export const BILLING_SETTINGS: Partial<Settings> = {
  paypal_enabled: true,
  paypal_client_id: PAYPAL_CLIENT,
  paypal_client_secret: PAYPAL_SECRET,
  tax_rate: 19,
  invoice_seller_name: 'SiteWalk Ltd',
  ...BANK,
};

/**
 * For the billing screens' phone and accessibility checks: `buyer` (a super
 * administrator, so /invoices shows too) with a long company name, a plan
 * sold per month and per year, one paid and one pending bank transfer — so
 * /billing, /checkout, /invoices and /mycompany show their content, not their
 * empty states. Needs BILLING_SETTINGS in force. Returns each screen's path
 * and its primary action.
 */
export async function billingScreens(buyer: TestUser) {
  const plan = await sellablePlan(buyer, { name: uniqueName('Site supervision professional'), description: 'Unlimited visits, 360° tours and the snag list for a whole construction company.' });
  const company = await api()
    .put('/api/company')
    .set(buyer.auth)
    .send({ name: 'Al-Mutahida Engineering & Contracting Company LLC', tax_id: 'JO-100200300-77', street: 'King Abdullah II Street 1207, Building 4', city: 'Amman', postal_code: '11181', country: 'Jordan' });
  if (company.status !== 200) throw new Error(`company not saved: ${company.status} ${JSON.stringify(company.body)}`);
  const transfer = async () => {
    const res = await api().post('/api/billing/checkout').set(buyer.auth).send({ id_plan: plan.id, period: 'year', method: 'bank_transfer' });
    if (res.status !== 201) throw new Error(`checkout failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.data.invoice as { id: number };
  };
  const paid = await transfer();
  const marked = await api().put(`/api/invoices/${paid.id}/mark-paid`).set(buyer.auth);
  if (marked.status !== 200) throw new Error(`not marked paid: ${marked.status} ${JSON.stringify(marked.body)}`);
  const pending = await transfer();
  return {
    plan,
    paid,
    pending,
    screens: [
      { path: '/billing', primary: (page: Page) => page.getByTestId('renew-button') },
      { path: `/checkout?plan=${plan.id}`, primary: (page: Page) => page.getByTestId('pay-paypal') },
      { path: `/invoices?user_id=${buyer.user.id}`, primary: (page: Page) => page.getByTestId(`invoice-row-${pending.id}`).getByTestId('mark-paid') },
      { path: '/mycompany', primary: (page: Page) => page.locator('form button[type="submit"]') },
    ],
  };
}
