import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@sitewalk/core/db';
import { queue } from '@sitewalk/core/queue';
import { startWaitingPlans } from '@sitewalk/core/services/billing.service.js';
import type { PaypalStandIn } from '../../test/support/paypal-stand-in.js';
import { api, createUser, type TestUser } from './helpers.js';
import { lockSettings, type SettingsLock } from './settings-lock.js';
import { captureLogs } from './autodesk-helpers.js';
import { BANK, PAYPAL_SECRET, checkoutPaypal, enableBilling, orderIdOf, sellablePlan, startPaypal, webhookUrl } from './billing-helpers.js';

let paypal: PaypalStandIn;
let lock: SettingsLock;
let admin: TestUser;

beforeAll(async () => {
  paypal = await startPaypal();
  lock = await lockSettings();
  await enableBilling(lock);
  await lock.set({ notify_plan_changes: true });
  admin = await createUser({ super_admin: true });
});
afterAll(async () => {
  await lock?.release();
  await paypal?.close();
});

const billing = async (u: TestUser) => {
  const res = await api().get('/api/user/billing').set(u.auth);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
};
const invoicesOf = (userId: number) => db()('invoices').where({ id_user: userId }).orderBy('id');
const paymentsOf = (invoiceId: number) => db()('payments').where({ id_invoice: invoiceId });
/** The notice queued for a user (the notifications worker stores it in the app and mails it per their preferences). */
const noticeOf = async (key: string) => (await queue('notifications').getJob(`notify-${key}`))?.data as { user_id: number; title: string; message: string; kind: string } | undefined;
const capture = (u: TestUser, invoiceId: number) => api().post('/api/billing/paypal/capture').set(u.auth).send({ invoice_id: invoiceId });

describe('checkout with PayPal', () => {
  it('charges what the server computes (tax included), ignoring any amount the browser sends', async () => {
    const user = await createUser();
    const plan = await sellablePlan(admin);
    const q = await api().get(`/api/billing/quote?id_plan=${plan.id}&period=month`).set(user.auth);
    expect(q.status).toBe(200);
    expect(q.body.data).toMatchObject({ subtotal_minor: 4990, tax_rate_bp: 1900, tax_minor: 948, total_minor: 5938, currency: 'EUR' });

    const out = await checkoutPaypal(user, plan.id, 'month', { total_minor: 1, amount: '0.01', price: 0 });
    expect(out.invoice).toMatchObject({ status: 'pending', total_minor: 5938, number: null });
    expect(out.approve_url).toContain(`${paypal.url}/checkoutnow?token=`);
    const order = paypal.orders.get(orderIdOf(out.approve_url))!;
    expect(order.unit.amount).toMatchObject({ currency_code: 'EUR', value: '59.38' });
    expect(order.unit.items?.[0]?.sku).toBe('PROD-SITEWALK-PLAN');
    // The create carried an idempotency key.
    expect(paypal.calls.find((c) => c.path === '/v2/checkout/orders')?.requestId).toMatch(/^sitewalk-invoice-/);

    const yearly = await api().get(`/api/billing/quote?id_plan=${plan.id}&period=year`).set(user.auth);
    expect(yearly.body.data.total_minor).toBe(49_900 + 9481);
  });

  it('refuses bad checkouts with a sentence', async () => {
    const user = await createUser();
    const plan = await sellablePlan(admin, { price_year_minor: null });
    const bad = (body: object) => api().post('/api/billing/checkout').set(user.auth).send(body);
    expect((await bad({ id_plan: plan.id, period: 'week', method: 'paypal' })).body.message).toMatch(/period/);
    expect((await bad({ id_plan: plan.id, period: 'month', method: 'cash' })).status).toBe(400);
    const notSold = await bad({ id_plan: plan.id, period: 'year', method: 'paypal' });
    expect(notSold.status).toBe(400);
    expect(notSold.body.message).toMatch(/not sold per year/);
    expect((await bad({ id_plan: 999_999, period: 'month', method: 'paypal' })).status).toBe(404);
    expect((await api().post('/api/billing/checkout').send({ id_plan: plan.id, period: 'month', method: 'paypal' })).status).toBe(401);
    expect(await invoicesOf(user.user.id)).toHaveLength(0);
  });

  it('after approval, captures once: the plan runs on, one paid invoice with a number, even when captured twice', async () => {
    const user = await createUser();
    const plan = await sellablePlan(admin);
    const out = await checkoutPaypal(user, plan.id);
    const early = await capture(user, out.invoice.id);
    expect(early.status).toBe(409);
    expect(early.body.message).toMatch(/PayPal/);

    paypal.approve(orderIdOf(out.approve_url));
    const { value: first, lines } = await captureLogs(() => capture(user, out.invoice.id));
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.data).toMatchObject({ status: 'paid', method: 'paypal', total_minor: 5938 });
    expect(first.body.data.number).toMatch(/^\d{4}-\d{6}$/);
    const again = await capture(user, out.invoice.id);
    expect(again.status).toBe(200);
    expect(again.body.data.number).toBe(first.body.data.number);

    expect(await invoicesOf(user.user.id)).toHaveLength(1);
    expect(await paymentsOf(out.invoice.id)).toHaveLength(1);
    const info = await billing(user);
    expect(info.plan).toMatchObject({ id_plan: plan.id, expires_at: first.body.data.period_end, is_owner: true });
    expect(info.invoices).toMatchObject([{ id: out.invoice.id, status: 'paid' }]);
    // The PDF and the mail are the worker's: one job for this invoice and status.
    expect(await queue('invoices').getJob(`invoice-${out.invoice.id}-paid`)).toBeTruthy();
    // The buyer is told once, with the new end of the plan and the invoice number; so are the admins (notify_plan_changes).
    expect(await noticeOf(`invoice-paid-${out.invoice.id}`)).toMatchObject({
      user_id: user.user.id,
      kind: 'plan',
      title: 'Payment received',
      message: `Thank you: 59.38 EUR received by PayPal for "${plan.name}". Your plan "${plan.name}" now runs until ${first.body.data.period_end}. Invoice ${first.body.data.number}.`,
    });
    expect(await noticeOf(`invoice-paid-${out.invoice.id}-admins-u${admin.user.id}`)).toMatchObject({ title: 'Payment received', message: expect.stringContaining(`paid invoice ${first.body.data.number}`) });
    // Nothing of PayPal's secret or tokens in the logs or the answers.
    const text = lines.join('\n') + JSON.stringify(first.body) + JSON.stringify(info);
    expect(text).not.toContain(PAYPAL_SECRET);
    for (const t of paypal.allTokens()) expect(text).not.toContain(t);
  });

  it('rides out 429 and 5xx from PayPal, and leaves nothing behind when PayPal stays down', async () => {
    const user = await createUser();
    const plan = await sellablePlan(admin);
    paypal.failNext(2, 429);
    const out = await checkoutPaypal(user, plan.id);
    expect(out.approve_url).toBeTruthy();
    paypal.failNext(20, 503);
    const down = await api().post('/api/billing/checkout').set(user.auth).send({ id_plan: plan.id, period: 'month', method: 'paypal' });
    paypal.failNext(0);
    expect(down.status).toBe(502);
    expect(down.body.message).toMatch(/PayPal/);
    expect(await invoicesOf(user.user.id)).toHaveLength(1);
  });
});

describe('PayPal webhooks', () => {
  it('refuse a bad or tampered signature with 400 and change nothing', async () => {
    const user = await createUser();
    const plan = await sellablePlan(admin);
    const out = await checkoutPaypal(user, plan.id);
    const event = paypal.captureCompletedEvent(orderIdOf(out.approve_url));
    const url = await webhookUrl();
    const bad = await paypal.sendWebhook(url, event, { badSignature: true });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { message: string }).message).toBe('The webhook signature is not valid.');
    expect((await paypal.sendWebhook(url, event, { tamper: true })).status).toBe(400);
    const unsigned = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(event) });
    expect(unsigned.status).toBe(400);
    expect((await invoicesOf(user.user.id))[0].status).toBe('pending');
    expect(await db()('paypal_webhook_events').where({ event_id: event.id })).toHaveLength(0);
  });

  it('pay an invoice on PAYMENT.CAPTURE.COMPLETED once: a replay or a later capture changes nothing', async () => {
    const user = await createUser();
    const plan = await sellablePlan(admin);
    const out = await checkoutPaypal(user, plan.id);
    const event = paypal.captureCompletedEvent(orderIdOf(out.approve_url));
    const url = await webhookUrl();
    const first = await paypal.sendWebhook(url, event);
    expect(first.status).toBe(200);
    expect(((await first.json()) as { data: { outcome: string } }).data.outcome).toBe('paid');
    const paid = (await invoicesOf(user.user.id))[0];
    expect(paid).toMatchObject({ status: 'paid' });
    const expiry = (await billing(user)).plan.expires_at;

    const replay = await paypal.sendWebhook(url, event);
    expect(((await replay.json()) as { data: { outcome: string } }).data.outcome).toBe('duplicate');
    // The browser's capture after the webhook: PayPal says already captured, the invoice stays as it is.
    const late = await capture(user, out.invoice.id);
    expect(late.status).toBe(200);
    expect(late.body.data.number).toBe(paid.number);
    expect(await paymentsOf(paid.id)).toHaveLength(1);
    expect((await billing(user)).plan.expires_at).toBe(expiry);
  });

  it('void a pending invoice on DENIED, and void a paid one by a numbered credit note on REFUNDED', async () => {
    const user = await createUser();
    const plan = await sellablePlan(admin);
    const url = await webhookUrl();
    const denied = await checkoutPaypal(user, plan.id);
    expect((await paypal.sendWebhook(url, paypal.captureDeniedEvent(orderIdOf(denied.approve_url)))).status).toBe(200);
    expect((await db()('invoices').where({ id: denied.invoice.id }).first()).status).toBe('void');
    expect(await queue('invoices').getJob(`invoice-${denied.invoice.id}-void`)).toBeTruthy();

    const out = await checkoutPaypal(user, plan.id);
    paypal.approve(orderIdOf(out.approve_url));
    const paid = (await capture(user, out.invoice.id)).body.data;
    const delPaid = await api().delete(`/api/invoices/${paid.id}`).set(admin.auth);
    expect(delPaid.status).toBe(409);
    expect(delPaid.body.message).toMatch(/credit note/);

    const refund = paypal.refundedEvent(orderIdOf(out.approve_url));
    expect(((await (await paypal.sendWebhook(url, refund)).json()) as { data: { outcome: string } }).data.outcome).toBe('refunded');
    expect(((await (await paypal.sendWebhook(url, refund)).json()) as { data: { outcome: string } }).data.outcome).toBe('duplicate');
    const list = (await api().get('/api/invoices').set(user.auth)).body.data as { id: number; kind: string; status: string; number: string; total_minor: number; id_credited: number }[];
    const note = list.find((i) => i.kind === 'credit_note')!;
    expect(note).toMatchObject({ id_credited: paid.id, total_minor: -5938, status: 'paid' });
    expect(Number(note.number.slice(5))).toBeGreaterThan(Number(paid.number.slice(5)));
    expect(list.find((i) => i.id === paid.id)!.status).toBe('void');
    // A numbered invoice is kept even once void; the denied one never had a number and may go.
    expect((await api().delete(`/api/invoices/${paid.id}`).set(admin.auth)).status).toBe(409);
    expect((await api().delete(`/api/invoices/${denied.invoice.id}`).set(admin.auth)).status).toBe(200);
  });
});

describe('a PayPal refund', () => {
  it('voids the invoice by a credit note, takes the paid month back off the plan and tells the buyer and the admins once', async () => {
    await lock.set({ notify_plan_changes: true });
    const user = await createUser();
    const plan = await sellablePlan(admin);
    expect((await api().post(`/api/plans/${plan.id}/subscriptions`).set(admin.auth).send({ user: user.user.username, expires_at: '2099-01-31' })).status).toBe(201);
    const out = await checkoutPaypal(user, plan.id);
    paypal.approve(orderIdOf(out.approve_url));
    const paid = (await capture(user, out.invoice.id)).body.data;
    expect(paid).toMatchObject({ status: 'paid', period_start: '2099-01-31', period_end: '2099-02-28' });
    expect((await billing(user)).plan.expires_at).toBe('2099-02-28');

    const url = await webhookUrl();
    const refund = paypal.refundedEvent(orderIdOf(out.approve_url));
    expect(((await (await paypal.sendWebhook(url, refund)).json()) as { data: { outcome: string } }).data.outcome).toBe('refunded');
    expect((await billing(user)).plan).toMatchObject({ id_plan: plan.id, expires_at: '2099-01-31' });
    const note = (await invoicesOf(user.user.id)).find((i) => i.kind === 'credit_note');
    expect(note).toMatchObject({ id_credited: paid.id, status: 'paid', total_minor: -5938 });
    expect(await queue('invoices').getJob(`invoice-${note.id}-paid`)).toBeTruthy();
    // The voided invoice gets its PDF again, marked void.
    expect(await queue('invoices').getJob(`invoice-${paid.id}-void`)).toBeTruthy();
    expect(await noticeOf(`invoice-refunded-${paid.id}`)).toMatchObject({
      user_id: user.user.id,
      title: 'Payment refunded',
      message: `59.38 EUR for "${plan.name}" was refunded: invoice ${paid.number} is voided by credit note ${note.number}. Your plan now runs until 2099-01-31.`,
    });
    expect((await noticeOf(`invoice-refunded-${paid.id}-admins-u${admin.user.id}`))?.message).toContain(`credit note ${note.number}); the plan now ends on 2099-01-31.`);

    // PayPal retries the event, or sends it again under a new id: the plan is not shortened twice, no second credit note.
    expect(((await (await paypal.sendWebhook(url, refund)).json()) as { data: { outcome: string } }).data.outcome).toBe('duplicate');
    expect(((await (await paypal.sendWebhook(url, { ...refund, id: `${refund.id}-again` })).json()) as { data: { outcome: string } }).data.outcome).toBe('ignored');
    expect((await billing(user)).plan.expires_at).toBe('2099-01-31');
    expect((await invoicesOf(user.user.id)).filter((i) => i.kind === 'credit_note')).toHaveLength(1);
  });

  it('tells the admins nothing when notify_plan_changes is off (the buyer still hears)', async () => {
    await lock.set({ notify_plan_changes: false });
    const user = await createUser();
    const plan = await sellablePlan(admin);
    const out = await checkoutPaypal(user, plan.id);
    paypal.approve(orderIdOf(out.approve_url));
    expect((await capture(user, out.invoice.id)).status).toBe(200);
    expect(await noticeOf(`invoice-paid-${out.invoice.id}`)).toBeTruthy();
    expect(await noticeOf(`invoice-paid-${out.invoice.id}-admins-u${admin.user.id}`)).toBeUndefined();
    await lock.set({ notify_plan_changes: true });
  });
});

describe('bank transfer and the administrator', () => {
  it('gives a pending invoice with a reference and the bank details; the admin marks it paid and the plan runs on', async () => {
    const user = await createUser();
    const plan = await sellablePlan(admin);
    const res = await api().post('/api/billing/checkout').set(user.auth).send({ id_plan: plan.id, period: 'year', method: 'bank_transfer' });
    expect(res.status).toBe(201);
    const { invoice, bank } = res.body.data;
    expect(bank).toEqual(BANK);
    expect(invoice).toMatchObject({ status: 'pending', number: null, method: 'bank_transfer', bank: BANK });
    expect(invoice.reference).toMatch(/^SW-[A-Z2-9]{10}$/);
    expect(await queue('invoices').getJob(`invoice-${invoice.id}-pending`)).toBeTruthy();

    expect((await api().put(`/api/invoices/${invoice.id}/mark-paid`).set(user.auth)).status).toBe(403);
    const paid = await api().put(`/api/invoices/${invoice.id}/mark-paid`).set(admin.auth);
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(paid.body.data).toMatchObject({ status: 'paid', method: 'bank_transfer' });
    expect(paid.body.data.bank).toBeUndefined();
    const again = await api().put(`/api/invoices/${invoice.id}/mark-paid`).set(admin.auth);
    expect(again.status).toBe(409);
    expect(again.body.message).toMatch(/already paid/);
    expect((await billing(user)).plan).toMatchObject({ id_plan: plan.id, expires_at: paid.body.data.period_end });
    expect(await noticeOf(`invoice-paid-${invoice.id}`)).toMatchObject({
      user_id: user.user.id,
      title: 'Bank transfer received',
      message: expect.stringContaining(`(reference ${invoice.reference}) for "${plan.name}" has arrived. Your plan "${plan.name}" now runs until ${paid.body.data.period_end}.`),
    });
    expect((await api().put('/api/invoices/999999/mark-paid').set(admin.auth)).status).toBe(404);
  });

  it('shows users only their own invoices; admins list and filter everyone, delete a pending one', async () => {
    const owner = await createUser();
    const other = await createUser();
    const plan = await sellablePlan(admin);
    const mine = (await api().post('/api/billing/checkout').set(owner.auth).send({ id_plan: plan.id, period: 'month', method: 'bank_transfer' })).body.data.invoice;

    const peek = await api().get(`/api/invoices/${mine.id}`).set(other.auth);
    expect(peek.status).toBe(404);
    expect(peek.body.message).toBe('Invoice not found.');
    expect((await api().get('/api/invoices').set(other.auth)).body.data).toEqual([]);
    const foreign = await api().get(`/api/invoices?user_id=${owner.user.id}`).set(other.auth);
    expect(foreign.status).toBe(403);
    expect((await api().delete(`/api/invoices/${mine.id}`).set(other.auth)).status).toBe(403);
    expect((await api().get('/api/invoices?status=unpaid').set(owner.auth)).status).toBe(400);

    const own = await api().get(`/api/invoices/${mine.id}?with_temp_urls=true`).set(owner.auth);
    expect(own.status).toBe(200);
    expect(own.body.data).toHaveProperty('pdf_url');
    const filtered = await api().get(`/api/invoices?user_id=${owner.user.id}&status=pending&with_temp_urls=true`).set(admin.auth);
    expect(filtered.body.data.map((i: { id: number }) => i.id)).toEqual([mine.id]);

    expect((await api().delete(`/api/invoices/${mine.id}`).set(admin.auth)).status).toBe(200);
    expect((await api().get(`/api/invoices/${mine.id}`).set(owner.auth)).status).toBe(404);
  });

  it('numbers 20 payments made at once without a gap or a repeat', async () => {
    const plan = await sellablePlan(admin);
    const buyers = await Promise.all(Array.from({ length: 20 }, () => createUser()));
    const ids: number[] = [];
    for (const b of buyers) ids.push((await api().post('/api/billing/checkout').set(b.auth).send({ id_plan: plan.id, period: 'month', method: 'bank_transfer' })).body.data.invoice.id);
    const answers = await Promise.all(ids.map((id) => api().put(`/api/invoices/${id}/mark-paid`).set(admin.auth)));
    expect(answers.map((a) => a.status)).toEqual(ids.map(() => 200));
    const numbers = answers.map((a) => a.body.data.number as string);
    expect(new Set(numbers).size).toBe(20);
    // Every number of the year so far, from 1 to the counter's last, exactly once.
    const year = Number(numbers[0].slice(0, 4));
    const all: string[] = (await db()('invoices').where('number', 'like', `${year}-%`).pluck('number')).sort();
    const last = (await db()('invoice_counters').where({ year }).first()).last;
    expect(all).toEqual(Array.from({ length: last }, (_, i) => `${year}-${String(i + 1).padStart(6, '0')}`));
  });
});

describe('a change of plan mid-period', () => {
  it('starts at the end of the current period: the plan stays until then, the new one waits', async () => {
    const user = await createUser();
    const current = await sellablePlan(admin);
    const next = await sellablePlan(admin);
    const sub = await api().post(`/api/plans/${current.id}/subscriptions`).set(admin.auth).send({ user: user.user.username, expires_at: '2099-01-31' });
    expect(sub.status).toBe(201);
    const inv = (await api().post('/api/billing/checkout').set(user.auth).send({ id_plan: next.id, period: 'month', method: 'bank_transfer' })).body.data.invoice;
    expect(inv).toMatchObject({ period_start: '2099-01-31', period_end: '2099-02-28' });
    await api().put(`/api/invoices/${inv.id}/mark-paid`).set(admin.auth);
    expect((await billing(user)).plan).toMatchObject({ id_plan: current.id, expires_at: '2099-02-28' });
    expect((await noticeOf(`invoice-paid-${inv.id}`))?.message).toContain(`"${next.name}" starts on 2099-01-31, when your current plan ends, and runs until 2099-02-28.`);
    await startWaitingPlans('2099-01-30');
    expect((await billing(user)).plan.id_plan).toBe(current.id);
    await startWaitingPlans('2099-01-31');
    expect((await billing(user)).plan).toMatchObject({ id_plan: next.id, expires_at: '2099-02-28' });
  });
});

describe('the company', () => {
  it('needs a name, and every later invoice carries it', async () => {
    const user = await createUser();
    const plan = await sellablePlan(admin);
    expect((await api().get('/api/company').set(user.auth)).body.data).toBeNull();
    const blank = await api().put('/api/company').set(user.auth).send({ name: '  ', tax_id: 'X' });
    expect(blank.status).toBe(400);
    expect(blank.body.message).toBe('Company name is required');
    expect((await api().put('/api/company').set(user.auth).send({ tax_id: 'X' })).body.message).toBe('Company name is required');
    const saved = await api().put('/api/company').set(user.auth).send({ name: 'Acme Build', tax_id: 'DE123456789', street: 'Main St 5', city: 'Berlin', postal_code: '10115', country: 'Germany' });
    expect(saved.status).toBe(200);
    expect((await api().put('/api/company').set(user.auth).send({ city: 'Hamburg' })).body.data).toMatchObject({ name: 'Acme Build', city: 'Hamburg' });
    const inv = (await api().post('/api/billing/checkout').set(user.auth).send({ id_plan: plan.id, period: 'month', method: 'bank_transfer' })).body.data.invoice;
    expect(inv.buyer).toMatchObject({ name: 'Acme Build', tax_id: 'DE123456789', address: ['Main St 5', '10115 Hamburg', 'Germany'] });
    expect((await api().delete('/api/company').set(user.auth)).status).toBe(200);
    expect((await api().delete('/api/company').set(user.auth)).status).toBe(404);
  });
});
