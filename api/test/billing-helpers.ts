import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import { config } from '@sitewalk/core/config.js';
import { startPaypalStandIn, type PaypalStandIn } from '../../test/support/paypal-stand-in.js';
import { api, testApp, uniqueName, type TestUser } from './helpers.js';
import type { SettingsLock } from './settings-lock.js';

import { PAYPAL_CLIENT, PAYPAL_SECRET, PAYPAL_WEBHOOK_ID } from '../../test/support/paypal-sample.js';

export { PAYPAL_CLIENT, PAYPAL_SECRET, PAYPAL_WEBHOOK_ID };

export const BANK = {
  bank_name: 'Arab Bank',
  bank_account_name: 'SiteWalk Ltd',
  bank_account_number: '0123456789',
  bank_swift_bic: 'ARABJOAX',
  bank_iban: 'JO94CBJO0010000000000131000302',
  bank_address: 'Shmeisani, Amman',
};

/** Starts the PayPal stand-in and points SiteWalk at it. */
export async function startPaypal(): Promise<PaypalStandIn> {
  const standIn = await startPaypalStandIn({ clientId: PAYPAL_CLIENT, clientSecret: PAYPAL_SECRET, webhookId: PAYPAL_WEBHOOK_ID });
  config.paypalBaseUrl = standIn.url;
  config.paypalWebhookId = PAYPAL_WEBHOOK_ID;
  return standIn;
}

/** PayPal and bank transfer on, 19 % tax, a seller. */
export const enableBilling = (lock: SettingsLock) =>
  lock.set({
    paypal_enabled: true,
    paypal_live: false,
    paypal_client_id: PAYPAL_CLIENT,
    paypal_client_secret: PAYPAL_SECRET,
    id_product_paypal: 'PROD-SITEWALK-PLAN',
    tax_rate: 19,
    invoice_seller_name: 'SiteWalk Ltd',
    invoice_seller_address: 'Rainbow Street 1\nAmman',
    invoice_seller_tax_id: 'JO-TAX-778',
    ...BANK,
  });

/** A plan sold at 49.90 a month and 499.00 a year (EUR). */
export async function sellablePlan(admin: TestUser, over: Record<string, unknown> = {}) {
  const res = await api()
    .post('/api/plans')
    .set(admin.auth)
    .send({ name: uniqueName('Pro'), price: 49.9, currency: 'EUR', period: 'month', member_slots: 2, price_month_minor: 4990, price_year_minor: 49_900, ...over });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { id: number; name: string };
}

export async function checkoutPaypal(user: TestUser, planId: number, period = 'month', extra: Record<string, unknown> = {}) {
  const res = await api().post('/api/billing/checkout').set(user.auth).send({ id_plan: planId, period, method: 'paypal', ...extra });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { invoice: { id: number; reference: string; total_minor: number; status: string }; approve_url: string };
}

export const orderIdOf = (approveUrl: string) => new URL(approveUrl).searchParams.get('token')!;

let listening: Promise<string> | null = null;
/** SiteWalk's webhook address on a real port, where the stand-in posts its events. */
export function webhookUrl(): Promise<string> {
  listening ??= new Promise((resolve) => {
    const server = http.createServer(testApp().callback());
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/billing/paypal/webhook`));
    server.unref();
  });
  return listening;
}
