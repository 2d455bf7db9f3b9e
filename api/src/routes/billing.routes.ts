import {
  captureSchema,
  checkoutSchema,
  companySaveSchema,
  invoiceGetQuerySchema,
  invoiceListQuerySchema,
  quoteQuerySchema,
  type BillingInfo,
  type CheckoutResult,
  type Company,
  type Invoice,
  type Quote,
} from '@sitewalk/proto';
import { badRequest } from '@sitewalk/core/errors.js';
import { currentUser, requireAuth, requireSuperAdmin } from '../http/auth.js';
import { created, ok } from '../http/envelope.js';
import { body, idParam, query } from '../http/validate.js';
import { billingInfo, capturePaypal, checkout, deleteInvoice, getInvoice, listInvoices, markPaid, quote } from '@sitewalk/core/services/billing.service.js';
import { deleteCompany, getCompany, saveCompany } from '@sitewalk/core/services/company.service.js';
import { handlePaypalWebhook } from '@sitewalk/core/services/paypal-webhook.service.js';
import type { RouteModule } from './types.js';

/** The path of PayPal's webhook: the JSON body parser leaves it alone (app.ts), its signature covers the raw body. */
export const PAYPAL_WEBHOOK_PATH = '/api/billing/paypal/webhook';
const WEBHOOK_LIMIT = 256 * 1024;

/** The request body as sent, up to a limit. */
async function rawBody(req: NodeJS.ReadableStream, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const b = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
    size += b.length;
    if (size > limit) throw new Error('too large');
    chunks.push(b);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Billing, invoices and the company (contract in proto/src/billing.ts). */
const billingRoutes: RouteModule = (r) => {
  const admin = [requireAuth, requireSuperAdmin] as const;
  r.get('/user/billing', requireAuth, async (ctx) => {
    ok<BillingInfo>(ctx, await billingInfo(currentUser(ctx)));
  });
  r.get('/billing/quote', requireAuth, async (ctx) => {
    const q = query(ctx, quoteQuerySchema);
    ok<Quote>(ctx, await quote(currentUser(ctx).id, q.id_plan, q.period));
  });
  r.post('/billing/checkout', requireAuth, async (ctx) => {
    const req = body(ctx, checkoutSchema);
    const result = await checkout(currentUser(ctx), req);
    created<CheckoutResult>(ctx, result, req.method === 'paypal' ? 'Continue at PayPal to approve the payment.' : 'Your invoice is waiting for your bank transfer.');
  });
  r.post('/billing/paypal/capture', requireAuth, async (ctx) => {
    const { invoice_id } = body(ctx, captureSchema);
    ok<Invoice>(ctx, await capturePaypal(currentUser(ctx), invoice_id), 'Payment received. Thank you!');
  });
  r.post('/billing/paypal/webhook', async (ctx) => {
    let raw: string;
    try {
      raw = await rawBody(ctx.req, WEBHOOK_LIMIT);
    } catch {
      throw badRequest('The webhook body could not be read.');
    }
    const headers = Object.fromEntries(Object.entries(ctx.headers).map(([k, v]) => [k.toLowerCase(), Array.isArray(v) ? v[0] : (v ?? '')]));
    ok(ctx, { received: true, outcome: await handlePaypalWebhook(headers, raw) });
  });

  r.get('/invoices', requireAuth, async (ctx) => {
    ok<Invoice[]>(ctx, await listInvoices(currentUser(ctx), query(ctx, invoiceListQuerySchema)));
  });
  r.get('/invoices/:id', requireAuth, async (ctx) => {
    const id = idParam(ctx);
    const q = query(ctx, invoiceGetQuerySchema);
    ok<Invoice>(ctx, await getInvoice(currentUser(ctx), id, !!q.with_temp_urls));
  });
  r.put('/invoices/:id/mark-paid', ...admin, async (ctx) => {
    ok<Invoice>(ctx, await markPaid(currentUser(ctx), idParam(ctx)), 'Invoice marked as paid.');
  });
  r.delete('/invoices/:id', ...admin, async (ctx) => {
    ok(ctx, await deleteInvoice(idParam(ctx)), 'Invoice deleted.');
  });

  r.get('/company', requireAuth, async (ctx) => {
    ok<Company | null>(ctx, await getCompany(currentUser(ctx).id));
  });
  r.put('/company', requireAuth, async (ctx) => {
    ok<Company>(ctx, await saveCompany(currentUser(ctx).id, body(ctx, companySaveSchema)), 'Company updated successfully!');
  });
  r.delete('/company', requireAuth, async (ctx) => {
    ok(ctx, await deleteCompany(currentUser(ctx).id), 'Company deleted successfully!');
  });
};

export default billingRoutes;
