import crypto from 'node:crypto';
import type { Knex } from 'knex';
import {
  INVOICE_PDF_URL_TTL_SEC,
  PAYMENT_METHODS,
  formatInvoiceNumber,
  formatMoney,
  userRoom,
  type BankDetails,
  type BillablePlan,
  type BillingInfo,
  type CheckoutRequest,
  type CheckoutResult,
  type Invoice,
  type InvoiceListQuery,
  type InvoiceParty,
  type PaymentMethod,
  type PlanPeriod,
  type Quote,
  type Settings,
} from '@sitewalk/proto';
import { db } from '../db/index.js';
import { config } from '../config.js';
import { logger } from '../logger.js';
import { badRequest, conflict, forbidden, notFound } from '../errors.js';
import { enqueue } from '../queue/index.js';
import { emitTo } from '../realtime/index.js';
import { remove, signedUrl } from '../storage/index.js';
import { getSettings } from './settings.service.js';
import { notify, notifySuperAdmins } from './notifications.service.js';
import { dayInZone, daysBetween } from './plan-expiry-rules.js';
import { paidPeriod, paymentReference, planAfterRefund, priceFor, taxRateBp, totals } from './billing-rules.js';
import { paymentNotices, refundNotices, type Notice } from './billing-notices.js';
import { getCompany } from './company.service.js';
import { approveUrlOf, captureOrder, createOrder, minorOf, type PaypalCredentials } from '../paypal/paypal-client.js';
import type { Actor } from './actor.js';
import { isUniqueViolation, type Db } from '../db/query-types.js';
import {
  deleteInvoiceRow,
  deletePendingInvoice,
  insertInvoice,
  insertPaymentOnce,
  invoiceRowById,
  invoiceRows,
  lockInvoice,
  markInvoicePaid,
  nextInvoiceSequence,
  setPaypalOrder,
  voidInvoice,
  type InvoiceRow,
} from '../repositories/invoices.repository.js';
import {
  activePlanRow,
  activePlanRows,
  insertSubscription,
  ownedSubscription,
  patchSubscription,
  runningPlanOf,
  startWaitingPlanRows,
  type CataloguePlanRow,
  type OwnedSubscription,
} from '../repositories/plans.repository.js';
import { superAdminIds, userById } from '../repositories/users.repository.js';

/**
 * Paying for a plan: the server prices the plan and period (the browser
 * names only those), opens a pending invoice, and takes the money by PayPal
 * (create order → buyer approves → capture, or the capture webhook) or by
 * bank transfer (an administrator marks it paid). recordPayment is the one
 * place an invoice becomes paid: in one transaction it records the payment,
 * takes the next invoice number and extends the plan; the PDF and the mail
 * follow from the invoice.generate job.
 */

// ---- Settings ----

/** The PayPal credentials when PayPal is on and set up; else null. */
export function paypalCredentials(s: Settings): PaypalCredentials | null {
  if (!s.paypal_enabled || !s.paypal_client_id || !s.paypal_client_secret) return null;
  return { clientId: s.paypal_client_id, clientSecret: s.paypal_client_secret, live: !!s.paypal_live };
}

export function bankDetails(s: Settings): BankDetails | null {
  if (!s.bank_name.trim() || !(s.bank_iban.trim() || s.bank_account_number.trim())) return null;
  return {
    bank_name: s.bank_name,
    bank_account_name: s.bank_account_name,
    bank_account_number: s.bank_account_number,
    bank_swift_bic: s.bank_swift_bic,
    bank_iban: s.bank_iban,
    bank_address: s.bank_address,
  };
}

export function paymentMethods(s: Settings): PaymentMethod[] {
  return PAYMENT_METHODS.filter((m) => (m === 'paypal' ? !!paypalCredentials(s) : !!bankDetails(s)));
}

const sellerOf = (s: Settings): InvoiceParty => ({
  name: s.invoice_seller_name || s.name,
  tax_id: s.invoice_seller_tax_id,
  address: s.invoice_seller_address.split('\n').map((l) => l.trim()).filter(Boolean),
  email: s.contact_email,
});

/** The buyer on an invoice: the user's company (/mycompany) when they have one, else their profile. */
async function buyerOf(k: Db, userId: number): Promise<InvoiceParty> {
  const u = (await userById(k, userId))!;
  const c = await getCompany(userId, k);
  const src = c ?? { name: u.company || [u.first_name, u.last_name].filter(Boolean).join(' ') || u.username, ...u };
  const cityLine = [src.postal_code, src.city].filter(Boolean).join(' ');
  return {
    name: c ? c.name : (src.name as string),
    tax_id: src.tax_id ?? '',
    address: [src.street, cityLine, src.province, src.country].map((l) => (l ?? '').trim()).filter(Boolean),
    email: (c?.email || u.email) as string,
  };
}

// ---- Plans and quotes ----

const billable = (p: CataloguePlanRow): BillablePlan => ({
  id: p.id,
  name: p.name,
  description: p.description,
  prices: (['month', 'year'] as const).flatMap((period) => {
    const amount = priceFor(p, period);
    return amount == null ? [] : [{ period, amount_minor: amount, currency: p.currency }];
  }),
});

/** What the user would pay now for a plan and period, and the dates it would run. */
export async function quote(userId: number, idPlan: number, period: PlanPeriod, k: Db = db(), settings?: Settings): Promise<Quote> {
  const s = settings ?? (await getSettings(k));
  const plan = await activePlanRow(k, idPlan);
  if (!plan) throw notFound('This plan is not offered.');
  const amount = priceFor(plan, period);
  if (amount == null || amount <= 0) throw badRequest(`The plan "${plan.name}" is not sold per ${period}.`);
  if (await runningPlanOf(k, userId, true)) throw conflict('You use the plan of its owner; only the owner pays for it. Leave that plan first to buy your own.');
  const sub = await ownedSubscription(k, userId);
  const today = dayInZone(new Date(), s.timezone);
  const dates = paidPeriod(sub?.expires_at ?? null, today, period);
  return { id_plan: plan.id, plan_name: plan.name, period, currency: plan.currency, ...totals(amount, taxRateBp(Number(s.tax_rate) || 0)), ...dates };
}

// ---- Invoices: reading ----

export function invoiceDto(r: InvoiceRow, opts: { urls?: boolean; bank?: BankDetails | null } = {}): Invoice {
  const dto: Invoice = {
    id: r.id,
    id_user: r.id_user,
    username: r.username,
    kind: r.kind,
    number: r.number,
    id_credited: r.id_credited,
    status: r.status,
    method: r.method,
    reference: r.reference,
    id_plan: r.id_plan,
    plan_name: r.plan_name,
    period: r.period,
    period_start: r.period_start,
    period_end: r.period_end,
    currency: r.currency,
    subtotal_minor: r.subtotal_minor,
    tax_rate_bp: r.tax_rate_bp,
    tax_minor: r.tax_minor,
    total_minor: r.total_minor,
    seller: r.seller,
    buyer: r.buyer,
    lines: r.lines,
    paid_at: r.paid_at ? new Date(r.paid_at).toISOString() : null,
    created_at: new Date(r.created_at).toISOString(),
    pdf_ready: !!r.pdf_key && r.pdf_status === r.status,
  };
  if (opts.urls) dto.pdf_url = r.pdf_key ? signedUrl(r.pdf_key, INVOICE_PDF_URL_TTL_SEC) : null;
  if (r.status === 'pending' && r.method === 'bank_transfer' && opts.bank !== undefined) dto.bank = opts.bank;
  return dto;
}

/** GET /invoices: the user's own invoices; super admins may name another user (or see everyone's without user_id). */
export async function listInvoices(user: Actor, q: InvoiceListQuery): Promise<Invoice[]> {
  if (q.user_id && q.user_id !== user.id && !user.super_admin) throw forbidden("Only administrators can see another user's invoices.");
  const rows = await invoiceRows(db(), { userId: user.super_admin ? q.user_id : user.id, status: q.status }, 1000);
  const bank = bankDetails(await getSettings());
  return rows.map((r) => invoiceDto(r, { urls: q.with_temp_urls, bank }));
}

/** GET /invoices/{id}: one's own (any for super admins); another user's is not found. */
export async function getInvoice(user: Actor, id: number, urls = false): Promise<Invoice> {
  const r = await invoiceRowById(db(), id);
  if (!r || (r.id_user !== user.id && !user.super_admin)) throw notFound('Invoice not found.');
  return invoiceDto(r, { urls, bank: bankDetails(await getSettings()) });
}

/** GET /user/billing: the plan, what can be bought, how, and the past invoices. */
export async function billingInfo(user: Actor): Promise<BillingInfo> {
  const k = db();
  const s = await getSettings();
  const owned = await runningPlanOf(k, user.id, false);
  const member = owned ? null : await runningPlanOf(k, user.id, true);
  const sub = owned ?? member;
  const today = dayInZone(new Date(), s.timezone);
  const plans = await activePlanRows(k);
  const rows = await invoiceRows(k, { userId: user.id }, 200);
  const bank = bankDetails(s);
  return {
    plan: sub ? { id_plan: sub.id_plan, name: sub.name, expires_at: sub.expires_at, days_left: daysBetween(today, sub.expires_at), expired: daysBetween(today, sub.expires_at) <= 0, is_owner: !!owned } : null,
    plans: plans.map(billable).filter((p) => p.prices.some((x) => x.amount_minor > 0)),
    methods: paymentMethods(s),
    tax_rate_bp: taxRateBp(Number(s.tax_rate) || 0),
    invoices: rows.map((r) => invoiceDto(r, { urls: true, bank })),
    company: await getCompany(user.id, k),
  };
}

// ---- Checkout ----

const newReference = () => paymentReference((n) => crypto.randomInt(n));

/**
 * POST /billing/checkout: a pending invoice for the plan and period at the
 * server's price; with PayPal, an order the buyer approves at PayPal (its
 * PayPal-Request-Id is the invoice, so a retried create makes one order).
 * If PayPal refuses, the pending invoice goes too: nothing is left behind.
 */
export async function checkout(user: Actor, req: CheckoutRequest, origin = config.appUrl): Promise<CheckoutResult> {
  const k = db();
  const s = await getSettings();
  if (!paymentMethods(s).includes(req.method)) throw badRequest(req.method === 'paypal' ? 'Paying with PayPal is not available.' : 'Paying by bank transfer is not available.');
  const q = await quote(user.id, req.id_plan, req.period, k, s);
  const line = { description: `${q.plan_name} (${q.period === 'year' ? 'yearly' : 'monthly'}), ${q.period_start} – ${q.period_end}`, quantity: 1, unit_minor: q.subtotal_minor, amount_minor: q.subtotal_minor };
  let id = 0;
  for (let tries = 0; !id; tries++) {
    try {
      id = await insertInvoice(k, {
        id_user: user.id,
        kind: 'invoice',
        status: 'pending',
        method: req.method,
        reference: newReference(),
        id_plan: q.id_plan,
        plan_name: q.plan_name,
        period: q.period,
        period_start: q.period_start,
        period_end: q.period_end,
        currency: q.currency,
        subtotal_minor: q.subtotal_minor,
        tax_rate_bp: q.tax_rate_bp,
        tax_minor: q.tax_minor,
        total_minor: q.total_minor,
        seller: JSON.stringify(sellerOf(s)),
        buyer: JSON.stringify(await buyerOf(k, user.id)),
        lines: JSON.stringify([line]),
      });
    } catch (err) {
      // A reference drawn twice: draw again.
      if (!isUniqueViolation(err) || tries > 3) throw err;
    }
  }
  const row = (await invoiceRowById(k, id))!;
  if (req.method === 'bank_transfer') {
    await queueInvoiceJob(id, 'pending');
    tellInvoiceChanged(row.id_user, id, 'pending');
    return { invoice: invoiceDto(row, { bank: bankDetails(s) }), approve_url: null, bank: bankDetails(s) };
  }
  try {
    const order = await createOrder(paypalCredentials(s)!, {
      requestId: `sitewalk-invoice-${id}-${row.reference}`,
      reference: row.reference,
      description: line.description,
      productId: s.id_product_paypal,
      currency: q.currency,
      subtotalMinor: q.subtotal_minor,
      taxMinor: q.tax_minor,
      returnUrl: `${origin}/checkout?invoice=${id}&paypal=return`,
      cancelUrl: `${origin}/checkout?invoice=${id}&paypal=cancel`,
      brandName: s.name,
    });
    const approve = approveUrlOf(order);
    if (!approve) throw badRequest('PayPal gave no page to approve the payment. Please try again.');
    await setPaypalOrder(k, id, order.id);
    return { invoice: invoiceDto({ ...row, paypal_order_id: order.id }), approve_url: approve, bank: null };
  } catch (err) {
    await deletePendingInvoice(k, id);
    throw err;
  }
}

/**
 * POST /billing/paypal/capture: after the buyer approved, takes the money.
 * Capturing twice (a double click, a retry, the webhook first) gives the
 * same paid invoice: PayPal answers the second capture with the first, and
 * the capture id is recorded once.
 */
export async function capturePaypal(user: Actor, invoiceId: number): Promise<Invoice> {
  const r = await invoiceRowById(db(), invoiceId);
  if (!r || r.id_user !== user.id) throw notFound('Invoice not found.');
  if (r.status === 'paid') return invoiceDto(r, { urls: true });
  if (r.status !== 'pending' || r.method !== 'paypal' || !r.paypal_order_id) throw conflict('This invoice is not waiting for a PayPal payment.');
  const creds = paypalCredentials(await getSettings());
  if (!creds) throw badRequest('Paying with PayPal is not available.');
  const capture = await captureOrder(creds, r.paypal_order_id, `sitewalk-capture-${r.id}-${r.reference}`);
  if (!capture || capture.status !== 'COMPLETED') {
    throw conflict(capture?.status === 'PENDING' ? 'PayPal is still checking this payment; the plan is extended as soon as PayPal confirms it.' : 'PayPal did not complete the payment. Please try again.');
  }
  await db().transaction((trx) => recordPaymentIn(trx, r.id, { provider: 'paypal', ref: capture.id, amountMinor: minorOf(capture.amount.value), currency: capture.amount.currency_code }));
  await afterPayment(r.id);
  return getInvoice(user, r.id, true);
}

// ---- Payments ----

export interface PaymentInput {
  provider: 'paypal' | 'bank';
  /** PayPal's capture id, or the bank reference. */
  ref: string;
  amountMinor: number;
  currency: string;
  recordedBy?: number;
}

/**
 * Makes a pending invoice paid, inside the caller's transaction: the row is
 * locked, the payment recorded (its provider reference is unique, so the
 * same payment counts once), the next number of the year taken from the
 * locked counter row (a rollback gives it back: no gap, no repeat) and the
 * plan extended. Returns false when there was nothing to do (already paid).
 */
export async function recordPaymentIn(trx: Knex.Transaction, invoiceId: number, p: PaymentInput): Promise<boolean> {
  const inv = await lockInvoice(trx, invoiceId);
  if (!inv) throw notFound('Invoice not found.');
  if (inv.status === 'paid') return false;
  if (inv.status !== 'pending' || inv.kind !== 'invoice') throw conflict('Only a pending invoice can be paid.');
  if (p.amountMinor !== inv.total_minor || p.currency !== inv.currency) {
    logger.warn({ invoice: invoiceId, provider: p.provider }, 'a payment did not match its invoice');
    throw conflict(`The payment of ${formatMoney(p.amountMinor, p.currency)} does not match the invoice total of ${formatMoney(inv.total_minor, inv.currency)}.`);
  }
  const claimed = await insertPaymentOnce(trx, { id_invoice: invoiceId, provider: p.provider, provider_ref: p.ref, amount_minor: p.amountMinor, currency: p.currency, recorded_by: p.recordedBy ?? null });
  if (!claimed) return false;
  const s = await getSettings(trx);
  const today = dayInZone(new Date(), s.timezone);
  // The period is settled now, from the plan as it stands at payment (an earlier invoice may have been paid since checkout).
  const sub = await ownedSubscription(trx, inv.id_user, { lock: true });
  const dates = paidPeriod(sub?.expires_at ?? null, today, inv.period);
  const number = await nextNumber(trx, Number(today.slice(0, 4)));
  await markInvoicePaid(trx, invoiceId, number, dates);
  if (inv.id_plan) await extendPlan(trx, inv.id_user, inv.id_plan, sub, dates, today);
  return true;
}

/** The next invoice number of a year (a rollback gives it back). */
async function nextNumber(trx: Knex.Transaction, year: number): Promise<string> {
  return formatInvoiceNumber(year, await nextInvoiceSequence(trx, year));
}

/**
 * The plan runs on to the paid period's end. The same plan: a new expiry.
 * Another plan while the current one still runs: it waits in next_id_plan
 * and starts when the current period ends (the daily scan switches it);
 * with no plan running, it starts at once.
 */
async function extendPlan(
  trx: Knex.Transaction,
  userId: number,
  planId: number,
  sub: OwnedSubscription | undefined,
  dates: { period_start: string; period_end: string },
  today: string,
) {
  if (!sub) {
    await insertSubscription(trx, { id_plan: planId, id_owner: userId, expires_at: dates.period_end });
    return;
  }
  const running = sub.expires_at > today;
  if (sub.id_plan === planId || !running) {
    await patchSubscription(trx, sub.id, { id_plan: planId, expires_at: dates.period_end, next_id_plan: null, next_plan_from: null });
  } else {
    await patchSubscription(trx, sub.id, { expires_at: dates.period_end, next_id_plan: planId, next_plan_from: dates.period_start });
  }
}

/** Switches subscriptions whose bought plan starts on or before `today` (the daily expiry scan calls it). */
export async function startWaitingPlans(today: string, k: Db = db()): Promise<number> {
  return startWaitingPlanRows(k, today);
}

const queueInvoiceJob = (id: number, status: string) =>
  enqueue('invoice.generate', { id_invoice: id }, { jobId: `invoice-${id}-${status}` }).catch((err) => logger.error({ err, invoice: id }, 'could not queue an invoice job'));

function tellInvoiceChanged(userId: number, id: number, status: string) {
  try {
    emitTo(userRoom(userId), 'invoice:changed', { id_invoice: id, status });
    void superAdminIds(db(), { withInactive: true }).then((ids) => ids.forEach((a) => a !== userId && emitTo(userRoom(a), 'invoice:changed', { id_invoice: id, status })));
  } catch (err) {
    logger.warn({ err }, 'could not emit invoice:changed');
  }
}

/** Notifies the buyer always and the super admins when notify_plan_changes is on (SPEC §3 triggers); `key` makes each notice once. */
async function tellPlanChange(userId: number, notices: { user: Notice; admins: Notice }, key: string, type: string) {
  await notify(userId, { kind: 'plan', ...notices.user, type, link: '/billing' }, { key });
  if ((await getSettings()).notify_plan_changes) await notifySuperAdmins({ kind: 'plan', ...notices.admins, link: '/invoices' }, { key: `${key}-admins` });
}

/** After a payment committed: the PDF and mail job, the live update and the notices. Best effort, each. */
export async function afterPayment(invoiceId: number): Promise<void> {
  const r = await invoiceRowById(db(), invoiceId);
  if (!r || r.status !== 'paid') return;
  await queueInvoiceJob(r.id, 'paid');
  tellInvoiceChanged(r.id_user, r.id, 'paid');
  try {
    // The plan bought waits when another one still runs (recordPaymentIn put it in next_id_plan).
    const sub = await ownedSubscription(db(), r.id_user);
    const waiting = !!sub && sub.next_id_plan === r.id_plan && sub.next_plan_from === r.period_start;
    await tellPlanChange(r.id_user, paymentNotices(r, waiting), `invoice-paid-${r.id}`, 'success');
  } catch (err) {
    logger.error({ err, invoice: r.id }, 'could not send a payment notification');
  }
}

/** After a refund committed: the credit note's PDF and mail, the live update, the notices. Best effort, each. */
export async function afterRefund(invoiceId: number, creditId: number): Promise<void> {
  const [r, note] = await Promise.all([invoiceRowById(db(), invoiceId), invoiceRowById(db(), creditId)]);
  if (!r || !note) return;
  // The credit note's PDF and mail, and the voided invoice's PDF marked void (until then its list entry waits for one).
  await Promise.all([queueInvoiceJob(creditId, 'paid'), queueInvoiceJob(r.id, 'void')]);
  tellInvoiceChanged(r.id_user, r.id, 'void');
  try {
    const s = await getSettings();
    const sub = await ownedSubscription(db(), r.id_user);
    await tellPlanChange(r.id_user, refundNotices(r, note.number ?? note.reference, sub?.expires_at ?? null, dayInZone(new Date(), s.timezone)), `invoice-refunded-${r.id}`, 'warning');
  } catch (err) {
    logger.error({ err, invoice: r.id }, 'could not send a refund notification');
  }
}

/** PUT /invoices/{id}/mark-paid (super admin): the bank transfer arrived. */
export async function markPaid(admin: Actor, id: number): Promise<Invoice> {
  const r = await invoiceRowById(db(), id);
  if (!r) throw notFound('Invoice not found.');
  if (r.status === 'paid') throw conflict(`Invoice ${r.number} is already paid.`);
  if (r.status !== 'pending' || r.kind !== 'invoice') throw conflict('Only a pending invoice can be marked paid.');
  await db().transaction((trx) => recordPaymentIn(trx, id, { provider: 'bank', ref: `bank:${r.reference}`, amountMinor: r.total_minor, currency: r.currency, recordedBy: admin.id }));
  await afterPayment(id);
  return getInvoice(admin, id, true);
}

/**
 * DELETE /invoices/{id} (super admin): a mistaken invoice that never got a
 * number (pending, or void before payment). A numbered one stays for the
 * records: a paid invoice is voided by a credit note (a PayPal refund).
 */
export async function deleteInvoice(id: number): Promise<{ id: number }> {
  const pdfKey = await db().transaction(async (trx) => {
    const r = await lockInvoice(trx, id);
    if (!r) throw notFound('Invoice not found.');
    if (r.status === 'paid') throw conflict('A paid invoice cannot be deleted; it can only be voided by a credit note (refund the payment).');
    if (r.number) throw conflict(`Invoice ${r.number} has a number and is kept for the records.`);
    await deleteInvoiceRow(trx, id);
    return r.pdf_key;
  });
  // Its payment-request PDF goes with it (after the commit: a rollback keeps both).
  await remove(pdfKey).catch((err) => logger.warn({ err, invoice: id }, 'could not remove the PDF of a deleted invoice'));
  return { id };
}

/**
 * A refund voids a paid invoice by a credit note: the same lines with
 * negative amounts, numbered in the same series, in one transaction with
 * the voiding and with taking the refunded period back off the plan.
 * Returns the credit note's id, or null when already voided.
 */
export async function creditNoteIn(trx: Knex.Transaction, invoiceId: number): Promise<number | null> {
  const inv = await lockInvoice(trx, invoiceId);
  if (!inv || inv.status !== 'paid' || inv.kind !== 'invoice') return null;
  const s = await getSettings(trx);
  const number = await nextNumber(trx, Number(dayInZone(new Date(), s.timezone).slice(0, 4)));
  const neg = (v: number) => -v;
  const id = await insertInvoice(
    trx,
    {
      id_user: inv.id_user,
      kind: 'credit_note',
      id_credited: inv.id,
      number,
      status: 'paid',
      method: inv.method,
      reference: `${inv.reference}-CN`,
      id_plan: inv.id_plan,
      plan_name: inv.plan_name,
      period: inv.period,
      period_start: inv.period_start,
      period_end: inv.period_end,
      currency: inv.currency,
      subtotal_minor: neg(inv.subtotal_minor),
      tax_rate_bp: inv.tax_rate_bp,
      tax_minor: neg(inv.tax_minor),
      total_minor: neg(inv.total_minor),
      seller: JSON.stringify(inv.seller),
      buyer: JSON.stringify(inv.buyer),
      lines: JSON.stringify((inv.lines as Invoice['lines']).map((l) => ({ ...l, description: `Credit for ${inv.number}: ${l.description}`, unit_minor: -l.unit_minor, amount_minor: -l.amount_minor }))),
    },
    { paidNow: true },
  );
  await voidInvoice(trx, inv.id);
  await takePeriodBack(trx, inv.id);
  return id;
}

/** The refunded invoice's period comes off its buyer's plan, in the refund's transaction (billing-rules planAfterRefund). */
async function takePeriodBack(trx: Knex.Transaction, invoiceId: number) {
  const inv = (await invoiceRowById(trx, invoiceId))!;
  const sub = await ownedSubscription(trx, inv.id_user, { lock: true });
  if (!sub) return;
  // Only the three fields the rule settles (when nothing changes it hands back the subscription as it is).
  const { expires_at, next_id_plan, next_plan_from } = planAfterRefund(sub, inv);
  await patchSubscription(trx, sub.id, { expires_at, next_id_plan, next_plan_from });
}

export { queueInvoiceJob, tellInvoiceChanged };
