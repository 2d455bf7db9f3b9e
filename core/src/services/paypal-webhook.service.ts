import type { Knex } from 'knex';
import { db } from '../db/index.js';
import { config } from '../config.js';
import { badRequest, notFound } from '../errors.js';
import { logger } from '../logger.js';
import { getSettings } from './settings.service.js';
import { afterPayment, afterRefund, creditNoteIn, paypalCredentials, queueInvoiceJob, recordPaymentIn, tellInvoiceChanged } from './billing.service.js';
import { minorOf, verifyWebhook } from '../paypal/paypal-client.js';
import { claimWebhookEvent, invoiceIdOfPayment, invoiceStatusWhere, voidInvoice } from '../repositories/invoices.repository.js';

/**
 * PayPal's webhook: the body is checked, as received, through PayPal's
 * verify-webhook-signature call; a genuine event is recorded by its id in
 * the same transaction as its effect, so a replayed or retried event
 * changes nothing twice (and an effect that fails leaves the id free for
 * PayPal's retry).
 */

interface WebhookEvent {
  id?: string;
  event_type?: string;
  resource?: {
    id?: string;
    status?: string;
    custom_id?: string;
    invoice_id?: string;
    amount?: { value: string; currency_code: string };
    supplementary_data?: { related_ids?: { order_id?: string } };
    links?: { href: string; rel: string }[];
  };
}

export type WebhookOutcome = 'paid' | 'denied' | 'refunded' | 'duplicate' | 'ignored';

export async function handlePaypalWebhook(headers: Record<string, string>, rawBody: string): Promise<WebhookOutcome> {
  const creds = paypalCredentials(await getSettings());
  if (!creds || !config.paypalWebhookId) throw notFound('PayPal is not enabled.');
  let event: WebhookEvent;
  try {
    event = JSON.parse(rawBody) as WebhookEvent;
  } catch {
    throw badRequest('The webhook body is not JSON.');
  }
  if (!event || typeof event.id !== 'string' || typeof event.event_type !== 'string') throw badRequest('The webhook has no event id or type.');
  if (!(await verifyWebhook(creds, config.paypalWebhookId, headers, rawBody))) {
    logger.warn({ event_type: event.event_type }, 'a PayPal webhook failed verification');
    throw badRequest('The webhook signature is not valid.');
  }
  const eventId = event.id;
  const eventType = event.event_type;
  const effect = await db().transaction(async (trx): Promise<{ outcome: WebhookOutcome; invoice?: number; credit?: number | null; user?: number }> => {
    if (!(await claimWebhookEvent(trx, eventId, eventType.slice(0, 100)))) return { outcome: 'duplicate' };
    return applyEvent(trx, event);
  });
  if (effect.outcome === 'paid' && effect.invoice) await afterPayment(effect.invoice);
  if (effect.outcome === 'refunded' && effect.credit && effect.invoice) await afterRefund(effect.invoice, effect.credit);
  if (effect.outcome === 'denied' && effect.invoice && effect.user) {
    await queueInvoiceJob(effect.invoice, 'void');
    tellInvoiceChanged(effect.user, effect.invoice, 'void');
  }
  return effect.outcome;
}

async function invoiceByReference(trx: Knex.Transaction, ref: string | undefined, orderId: string | undefined) {
  if (ref) {
    const r = await invoiceStatusWhere(trx, { reference: ref, kind: 'invoice' });
    if (r) return r;
  }
  if (orderId) return invoiceStatusWhere(trx, { paypal_order_id: orderId });
  return undefined;
}

async function applyEvent(trx: Knex.Transaction, event: WebhookEvent) {
  const res = event.resource ?? {};
  switch (event.event_type) {
    case 'PAYMENT.CAPTURE.COMPLETED': {
      const inv = await invoiceByReference(trx, res.custom_id ?? res.invoice_id, res.supplementary_data?.related_ids?.order_id);
      if (!inv || !res.id || !res.amount) return { outcome: 'ignored' as const };
      const paid = await recordPaymentIn(trx, inv.id, { provider: 'paypal', ref: res.id, amountMinor: minorOf(res.amount.value), currency: res.amount.currency_code });
      return { outcome: paid ? ('paid' as const) : ('ignored' as const), invoice: inv.id, user: inv.id_user };
    }
    case 'PAYMENT.CAPTURE.DENIED': {
      const inv = await invoiceByReference(trx, res.custom_id ?? res.invoice_id, res.supplementary_data?.related_ids?.order_id);
      if (!inv || inv.status !== 'pending') return { outcome: 'ignored' as const };
      await voidInvoice(trx, inv.id, { onlyIfPending: true });
      return { outcome: 'denied' as const, invoice: inv.id, user: inv.id_user };
    }
    case 'PAYMENT.CAPTURE.REFUNDED': {
      // The refund names its capture in links (rel 'up'); custom_id carries our reference too.
      const captureId = res.links?.find((l) => l.rel === 'up')?.href.split('/').pop();
      const paidInvoice = captureId ? await invoiceIdOfPayment(trx, captureId) : undefined;
      const inv = paidInvoice ? await invoiceStatusWhere(trx, { id: paidInvoice }) : await invoiceByReference(trx, res.custom_id ?? res.invoice_id, undefined);
      if (!inv) return { outcome: 'ignored' as const };
      const credit = await creditNoteIn(trx, inv.id);
      return { outcome: credit ? ('refunded' as const) : ('ignored' as const), invoice: inv.id, credit, user: inv.id_user };
    }
    default:
      return { outcome: 'ignored' as const };
  }
}
