import type { Invoice, InvoiceListQuery } from '@sitewalk/proto';
import type { Db } from '../db/query-types.js';

/**
 * Every query of invoices and credit notes, of the payments recorded against
 * them, of the yearly number series and of the PayPal webhook events already
 * handled. The services hold the rules (billing.service, paypal-webhook.service).
 */

/** An invoice as stored: the API's fields (proto) with the database's own dates and PDF columns. */
export type InvoiceRow = Pick<
  Invoice,
  | 'id'
  | 'id_user'
  | 'username'
  | 'kind'
  | 'number'
  | 'id_credited'
  | 'status'
  | 'method'
  | 'reference'
  | 'id_plan'
  | 'plan_name'
  | 'period'
  | 'period_start'
  | 'period_end'
  | 'currency'
  | 'subtotal_minor'
  | 'tax_rate_bp'
  | 'tax_minor'
  | 'total_minor'
  | 'seller'
  | 'buyer'
  | 'lines'
> & {
  paypal_order_id: string | null;
  paid_at: Date | null;
  created_at: Date;
  pdf_key: string | null;
  pdf_status: string | null;
};

/** What a new invoice or credit note stores: the API's fields, the parties and lines as JSON text, the period's days as text or as read back (a credit note copies them). */
export type InvoiceInsert = Omit<
  InvoiceRow,
  'id' | 'username' | 'number' | 'id_credited' | 'seller' | 'buyer' | 'lines' | 'paypal_order_id' | 'paid_at' | 'created_at' | 'pdf_key' | 'pdf_status' | 'period_start' | 'period_end'
> &
  Partial<Pick<InvoiceRow, 'number' | 'id_credited'>> & { period_start: string | Date; period_end: string | Date; seller: string; buyer: string; lines: string };

/** Invoices with their user's name and the period's days as YYYY-MM-DD. */
function invoiceQuery(k: Db) {
  return k('invoices as i')
    .join('users as u', 'u.id', 'i.id_user')
    .select('i.*', 'u.username', k.raw(`to_char(i.period_start, 'YYYY-MM-DD') as period_start`), k.raw(`to_char(i.period_end, 'YYYY-MM-DD') as period_end`));
}

export async function invoiceRowById(k: Db, id: number): Promise<InvoiceRow | undefined> {
  return await invoiceQuery(k).where('i.id', id).first();
}

/** Invoices newest first, at most `limit`: of one user, or everyone's; of one status or any. */
export function invoiceRows(k: Db, where: { userId?: number; status?: InvoiceListQuery['status'] }, limit: number): Promise<InvoiceRow[]> {
  const q = invoiceQuery(k).orderBy('i.created_at', 'desc').orderBy('i.id', 'desc').limit(limit);
  if (where.userId) q.where('i.id_user', where.userId);
  if (where.status) q.where('i.status', where.status);
  return q;
}

/** The number of an invoice (a credit note names the invoice it voids by it). */
export async function invoiceNumber(k: Db, id: number): Promise<string | null | undefined> {
  return ((await k('invoices').where({ id }).first('number')) as { number: string | null } | undefined)?.number;
}

/** Writes an invoice or credit note (`paidNow`: paid at the transaction's time); a payment reference drawn twice fails with a unique violation. */
export async function insertInvoice(k: Db, row: InvoiceInsert, opts: { paidNow?: boolean } = {}): Promise<number> {
  const [{ id }] = await k('invoices')
    .insert({ ...row, ...(opts.paidNow ? { paid_at: k.fn.now() } : {}) })
    .returning('id');
  return id;
}

export async function setPaypalOrder(k: Db, id: number, orderId: string): Promise<void> {
  await k('invoices').where({ id }).update({ paypal_order_id: orderId, updated_at: k.fn.now() });
}

/** Deletes an invoice only while it is pending and has no number (a checkout PayPal refused). */
export async function deletePendingInvoice(k: Db, id: number): Promise<void> {
  await k('invoices').where({ id, status: 'pending' }).whereNull('number').delete();
}

export async function deleteInvoiceRow(k: Db, id: number): Promise<void> {
  await k('invoices').where({ id }).delete();
}

/** An invoice as the table holds it: no user name, the period's days as the driver gives them. */
export type StoredInvoice = Omit<InvoiceRow, 'username' | 'period_start' | 'period_end'> & { period_start: Date | string; period_end: Date | string };

/** The invoice as the table holds it, locked for the rest of the transaction. */
export async function lockInvoice(k: Db, id: number): Promise<StoredInvoice | undefined> {
  return await k('invoices').where({ id }).forUpdate().first();
}

/** Gives a paid invoice its number, payment time and settled period. */
export async function markInvoicePaid(k: Db, id: number, number: string, dates: { period_start: string; period_end: string }): Promise<void> {
  await k('invoices').where({ id }).update({ status: 'paid', number, paid_at: k.fn.now(), ...dates, updated_at: k.fn.now() });
}

/** Voids an invoice (when `onlyIfPending`, only one still pending). */
export async function voidInvoice(k: Db, id: number, opts: { onlyIfPending?: boolean } = {}): Promise<void> {
  await k('invoices')
    .where({ id, ...(opts.onlyIfPending ? { status: 'pending' } : {}) })
    .update({ status: 'void', updated_at: k.fn.now() });
}

/**
 * Links the PDF written for this status, only if the invoice still has that
 * status and no PDF of it (another run may have linked one meanwhile); whether it did.
 */
export async function linkInvoicePdf(k: Db, id: number, status: string, pdfKey: string): Promise<boolean> {
  const n = await k('invoices')
    .where({ id, status })
    .where((q) => q.whereNull('pdf_status').orWhereNot('pdf_status', status))
    .update({ pdf_key: pdfKey, pdf_status: status, updated_at: k.fn.now() });
  return n > 0;
}

/** The next number of a year's series, from its counter row (made on first use, locked until commit). */
export async function nextInvoiceSequence(k: Db, year: number): Promise<number> {
  const { rows } = await k.raw<{ rows: { last: number }[] }>(
    'insert into invoice_counters (year, last) values (?, 1) on conflict (year) do update set last = invoice_counters.last + 1 returning last',
    [year],
  );
  return rows[0].last;
}

// ---- Payments ----

/** A payment as recorded: its provider reference is unique, so the same payment counts once. */
export interface PaymentInsert {
  id_invoice: number;
  provider: 'paypal' | 'bank';
  provider_ref: string;
  amount_minor: number;
  currency: string;
  recorded_by: number | null;
}

/** Records a payment; false when one with its provider reference was recorded before. */
export async function insertPaymentOnce(k: Db, row: PaymentInsert): Promise<boolean> {
  const claimed = await k('payments').insert(row).onConflict('provider_ref').ignore().returning('id');
  return claimed.length > 0;
}

/** The invoice a payment (by its provider reference) paid. */
export async function invoiceIdOfPayment(k: Db, providerRef: string): Promise<number | undefined> {
  return ((await k('payments').where({ provider_ref: providerRef }).first('id_invoice')) as { id_invoice: number } | undefined)?.id_invoice;
}

// ---- PayPal webhook events ----

/** Records a webhook event as handled; false when it was handled before (PayPal sends events again). */
export async function claimWebhookEvent(k: Db, eventId: string, eventType: string): Promise<boolean> {
  const fresh = await k('paypal_webhook_events').insert({ event_id: eventId, event_type: eventType }).onConflict('event_id').ignore().returning('event_id');
  return fresh.length > 0;
}

/** What a webhook needs of an invoice: whose it is and its status. */
export type InvoiceStatusRow = Pick<InvoiceRow, 'id' | 'id_user' | 'status'>;

export async function invoiceStatusWhere(k: Db, where: { id: number } | { reference: string; kind: 'invoice' } | { paypal_order_id: string }): Promise<InvoiceStatusRow | undefined> {
  return await k('invoices').where(where).first('id', 'id_user', 'status');
}
