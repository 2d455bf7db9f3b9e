import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for PayPal's REST API, speaking the paths, headers and
 * shapes SiteWalk uses, so tests and the browser flow run the real protocol
 * without the internet:
 *
 * - POST /v1/oauth2/token (client credentials, HTTP Basic);
 * - Orders v2: POST /v2/checkout/orders (PayPal-Request-Id: the same id
 *   gives the same order), GET /v2/checkout/orders/{id},
 *   POST /v2/checkout/orders/{id}/capture (ORDER_NOT_APPROVED,
 *   ORDER_ALREADY_CAPTURED as PayPal answers them);
 * - the buyer's approval page /checkoutnow?token= with Approve and Cancel,
 *   which sends the browser to the order's return or cancel URL;
 * - webhooks: `sendWebhook` posts a signed event to SiteWalk, and
 *   POST /v1/notifications/verify-webhook-signature checks the signature
 *   against the event text exactly as it was sent;
 * - 429 or 5xx on demand (`failNext`).
 */

export interface PaypalStandInOptions {
  clientId: string;
  clientSecret: string;
  webhookId: string;
}

interface Order {
  id: string;
  requestId: string;
  status: 'PAYER_ACTION_REQUIRED' | 'APPROVED' | 'COMPLETED' | 'VOIDED';
  unit: { reference_id: string; custom_id: string; invoice_id?: string; amount: { currency_code: string; value: string }; description?: string; items?: { sku?: string }[] };
  returnUrl: string;
  cancelUrl: string;
  capture?: { id: string; status: 'COMPLETED'; amount: { currency_code: string; value: string }; custom_id: string; invoice_id?: string };
}

export interface PaypalStandIn {
  url: string;
  orders: Map<string, Order>;
  /** The next `count` API calls (not the approval page) answer `status` (429 with Retry-After: 0). */
  failNext(count: number, status?: number): void;
  /** How many calls each path got (for "created once" checks). */
  calls: { method: string; path: string; requestId?: string }[];
  /** What a buyer does on the approval page, without a browser. */
  approve(orderId: string): void;
  /** Captures on PayPal's side (as if another capture call or PayPal itself did it). */
  captureOnPaypal(orderId: string): Order['capture'];
  /** Posts a signed webhook event to `target`; `tamper` changes the body after signing. */
  sendWebhook(target: string, event: WebhookEvent, opts?: { tamper?: boolean; badSignature?: boolean }): Promise<Response>;
  captureCompletedEvent(orderId: string): WebhookEvent;
  captureDeniedEvent(orderId: string): WebhookEvent;
  refundedEvent(orderId: string): WebhookEvent;
  /** Every access token issued (none may reach a log or a browser). */
  allTokens(): string[];
  close(): Promise<void>;
}

export interface WebhookEvent {
  id: string;
  event_type: string;
  resource_type: string;
  create_time: string;
  resource: Record<string, unknown>;
}

const rand = (n: number) => crypto.randomBytes(n).toString('hex').toUpperCase();

export async function startPaypalStandIn(opts: PaypalStandInOptions): Promise<PaypalStandIn> {
  const signingKey = crypto.randomBytes(32);
  const tokens = new Set<string>();
  const orders = new Map<string, Order>();
  const byRequestId = new Map<string, string>();
  const calls: PaypalStandIn['calls'] = [];
  let failLeft = 0;
  let failStatus = 503;
  let base = '';

  const send = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
  const issue = (name: string, description: string, status = 422) => ({ status, body: { name: status === 422 ? 'UNPROCESSABLE_ENTITY' : 'INVALID_REQUEST', message: description, details: [{ issue: name, description }] } });
  const orderJson = (o: Order) => ({
    id: o.id,
    status: o.status,
    purchase_units: [{ ...o.unit, ...(o.capture ? { payments: { captures: [o.capture] } } : {}) }],
    links: [
      { href: `${base}/v2/checkout/orders/${o.id}`, rel: 'self', method: 'GET' },
      ...(o.status === 'PAYER_ACTION_REQUIRED' ? [{ href: `${base}/checkoutnow?token=${o.id}`, rel: 'payer-action', method: 'GET' }] : []),
    ],
  });
  const sign = (transmissionId: string, time: string, text: string) =>
    crypto.createHmac('sha256', signingKey).update(`${transmissionId}|${time}|${opts.webhookId}|${crypto.createHash('sha256').update(text).digest('hex')}`).digest('base64');

  const doCapture = (o: Order) => {
    o.status = 'COMPLETED';
    o.capture = { id: `CAP${rand(6)}`, status: 'COMPLETED', amount: o.unit.amount, custom_id: o.unit.custom_id, invoice_id: o.unit.invoice_id };
    return o.capture;
  };

  const readBody = async (req: http.IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  };

  async function handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const url = new URL(req.url ?? '/', base);
    const p = url.pathname;
    const text = await readBody(req);

    // The buyer's pages.
    if (p === '/checkoutnow' && req.method === 'GET') {
      const o = orders.get(url.searchParams.get('token') ?? '');
      if (!o) return send(res, 404, { message: 'No such order' });
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return res.end(`<!doctype html><html lang="en"><head><title>PayPal stand-in</title></head><body><main>
<h1>Pay with PayPal (stand-in)</h1><p>${o.unit.description ?? ''}</p><p>Total: <strong>${o.unit.amount.value} ${o.unit.amount.currency_code}</strong></p>
<form method="post" action="/checkoutnow/decision"><input type="hidden" name="token" value="${o.id}">
<button name="decision" value="approve">Approve</button> <button name="decision" value="cancel">Cancel</button></form></main></body></html>`);
    }
    if (p === '/checkoutnow/decision' && req.method === 'POST') {
      const form = new URLSearchParams(text);
      const o = orders.get(form.get('token') ?? '');
      if (!o) return send(res, 404, { message: 'No such order' });
      const approve = form.get('decision') === 'approve';
      if (approve && o.status === 'PAYER_ACTION_REQUIRED') o.status = 'APPROVED';
      const target = new URL(approve ? o.returnUrl : o.cancelUrl);
      target.searchParams.set('token', o.id);
      if (approve) target.searchParams.set('PayerID', `PAYER${rand(4)}`);
      res.writeHead(302, { location: target.toString() });
      return res.end();
    }

    // Only the REST API lives under /v1 and /v2 (a browser also asks for /favicon.ico).
    if (!/^\/v[12]\//.test(p)) return send(res, 404, { name: 'RESOURCE_NOT_FOUND', message: `No route ${req.method} ${p}` });
    calls.push({ method: req.method ?? 'GET', path: p, requestId: req.headers['paypal-request-id'] as string | undefined });
    if (failLeft > 0) {
      failLeft--;
      return send(res, failStatus, { name: failStatus === 429 ? 'RATE_LIMIT_REACHED' : 'INTERNAL_SERVER_ERROR', message: 'Stand-in failure on demand' }, failStatus === 429 ? { 'retry-after': '0' } : {});
    }

    if (p === '/v1/oauth2/token' && req.method === 'POST') {
      const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '');
      const [id, secret] = basic ? Buffer.from(basic[1], 'base64').toString().split(':') : [];
      if (id !== opts.clientId || secret !== opts.clientSecret) return send(res, 401, { error: 'invalid_client', error_description: 'Client Authentication failed' });
      if (new URLSearchParams(text).get('grant_type') !== 'client_credentials') return send(res, 400, { error: 'unsupported_grant_type' });
      const token = `A21AA${rand(24)}`;
      tokens.add(token);
      return send(res, 200, { scope: 'https://uri.paypal.com/services/payments/payment', access_token: token, token_type: 'Bearer', app_id: 'APP-STANDIN', expires_in: 32400, nonce: rand(8) });
    }
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!bearer || !tokens.has(bearer)) return send(res, 401, { error: 'invalid_token', error_description: 'Token signature verification failed' });

    if (p === '/v2/checkout/orders' && req.method === 'POST') {
      const requestId = req.headers['paypal-request-id'] as string | undefined;
      if (requestId && byRequestId.has(requestId)) return send(res, 200, orderJson(orders.get(byRequestId.get(requestId)!)!));
      const body = JSON.parse(text) as { intent: string; purchase_units: Order['unit'][]; payment_source?: { paypal?: { experience_context?: { return_url?: string; cancel_url?: string } } } };
      const ctx = body.payment_source?.paypal?.experience_context;
      if (body.intent !== 'CAPTURE' || !body.purchase_units?.[0]?.amount || !ctx?.return_url || !ctx.cancel_url) {
        const e = issue('MISSING_REQUIRED_PARAMETER', 'intent, purchase_units and the return and cancel URLs are required.', 400);
        return send(res, e.status, e.body);
      }
      const o: Order = { id: rand(8), requestId: requestId ?? '', status: 'PAYER_ACTION_REQUIRED', unit: body.purchase_units[0], returnUrl: ctx.return_url, cancelUrl: ctx.cancel_url };
      orders.set(o.id, o);
      if (requestId) byRequestId.set(requestId, o.id);
      return send(res, 201, orderJson(o));
    }
    let m: RegExpExecArray | null;
    if ((m = /^\/v2\/checkout\/orders\/([A-Z0-9]+)$/.exec(p)) && req.method === 'GET') {
      const o = orders.get(m[1]);
      return o ? send(res, 200, orderJson(o)) : send(res, 404, issue('INVALID_RESOURCE_ID', 'Specified resource ID does not exist.', 404).body);
    }
    if ((m = /^\/v2\/checkout\/orders\/([A-Z0-9]+)\/capture$/.exec(p)) && req.method === 'POST') {
      const o = orders.get(m[1]);
      if (!o) return send(res, 404, issue('INVALID_RESOURCE_ID', 'Specified resource ID does not exist.', 404).body);
      const requestId = req.headers['paypal-request-id'] as string | undefined;
      if (o.status === 'COMPLETED') {
        // The same PayPal-Request-Id replays the first answer; another capture is refused.
        if (requestId && byRequestId.get(`capture:${requestId}`) === o.id) return send(res, 201, orderJson(o));
        const e = issue('ORDER_ALREADY_CAPTURED', 'Order already captured.');
        return send(res, e.status, e.body);
      }
      if (o.status !== 'APPROVED') {
        const e = issue('ORDER_NOT_APPROVED', 'Payer has not yet approved the Order for payment.');
        return send(res, e.status, e.body);
      }
      doCapture(o);
      if (requestId) byRequestId.set(`capture:${requestId}`, o.id);
      return send(res, 201, orderJson(o));
    }
    if (p === '/v1/notifications/verify-webhook-signature' && req.method === 'POST') {
      // The event is checked as the text it was sent as: it is the rest of the body after "webhook_event":.
      const at = text.indexOf('"webhook_event":');
      const head = JSON.parse(`${text.slice(0, at).replace(/,\s*$/, '')}}`) as Record<string, string>;
      const eventText = text.slice(at + '"webhook_event":'.length, text.lastIndexOf('}'));
      const ok = head.webhook_id === opts.webhookId && head.auth_algo === 'SHA256withRSA' && head.transmission_sig === sign(head.transmission_id, head.transmission_time, eventText);
      return send(res, 200, { verification_status: ok ? 'SUCCESS' : 'FAILURE' });
    }
    return send(res, 404, { name: 'RESOURCE_NOT_FOUND', message: `No route ${req.method} ${p}` });
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err) => send(res, 500, { name: 'INTERNAL_SERVER_ERROR', message: String(err) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const event = (type: string, resource: Record<string, unknown>, resourceType = 'capture'): WebhookEvent => ({
    id: `WH-${rand(8)}`,
    event_type: type,
    resource_type: resourceType,
    create_time: new Date().toISOString(),
    resource,
  });
  const captureResource = (o: Order) => ({
    id: o.capture!.id,
    status: o.capture!.status,
    amount: o.capture!.amount,
    custom_id: o.unit.custom_id,
    invoice_id: o.unit.invoice_id,
    supplementary_data: { related_ids: { order_id: o.id } },
  });

  return {
    url: base,
    orders,
    calls,
    failNext(count, status = 503) {
      failLeft = count;
      failStatus = status;
    },
    approve(orderId) {
      const o = orders.get(orderId);
      if (o && o.status === 'PAYER_ACTION_REQUIRED') o.status = 'APPROVED';
    },
    captureOnPaypal(orderId) {
      const o = orders.get(orderId)!;
      return o.capture ?? doCapture(o);
    },
    async sendWebhook(target, ev, o = {}) {
      const body = JSON.stringify(ev);
      const transmissionId = crypto.randomUUID();
      const time = new Date().toISOString();
      const sig = o.badSignature ? crypto.randomBytes(32).toString('base64') : sign(transmissionId, time, body);
      return fetch(target, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'paypal-auth-algo': 'SHA256withRSA',
          'paypal-cert-url': `${base}/v1/notifications/certs/CERT-STANDIN`,
          'paypal-transmission-id': transmissionId,
          'paypal-transmission-sig': sig,
          'paypal-transmission-time': time,
        },
        body: o.tamper ? body.replace(/"value":"(\d+)/, '"value":"9$1') : body,
      });
    },
    captureCompletedEvent(orderId) {
      const o = orders.get(orderId)!;
      if (!o.capture) doCapture(o);
      return event('PAYMENT.CAPTURE.COMPLETED', captureResource(o));
    },
    captureDeniedEvent(orderId) {
      const o = orders.get(orderId)!;
      return event('PAYMENT.CAPTURE.DENIED', { id: `CAP${rand(6)}`, status: 'DECLINED', amount: o.unit.amount, custom_id: o.unit.custom_id, supplementary_data: { related_ids: { order_id: o.id } } });
    },
    refundedEvent(orderId) {
      const o = orders.get(orderId)!;
      return event(
        'PAYMENT.CAPTURE.REFUNDED',
        { id: `REF${rand(6)}`, status: 'COMPLETED', amount: o.capture!.amount, custom_id: o.unit.custom_id, links: [{ href: `${base}/v2/payments/captures/${o.capture!.id}`, rel: 'up', method: 'GET' }] },
        'refund',
      );
    },
    allTokens: () => [...tokens],
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
