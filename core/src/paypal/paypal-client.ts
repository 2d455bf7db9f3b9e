import { config } from '../config.js';
import { HttpError } from '../errors.js';
import { logger } from '../logger.js';
import { retryAfterMs } from '../adsk/retry-after.js';

/**
 * The one HTTP client of PayPal's REST API: OAuth 2 client credentials,
 * Orders v2 (create with PayPal-Request-Id, capture, read) and
 * verify-webhook-signature. Logs name the method, the path and the status
 * only: never a token, the secret or a body.
 */

export const PAYPAL_SANDBOX_URL = 'https://api-m.sandbox.paypal.com';
export const PAYPAL_LIVE_URL = 'https://api-m.paypal.com';

export interface PaypalCredentials {
  clientId: string;
  clientSecret: string;
  live: boolean;
}

/** PayPal refused or did not answer; the message is for people, the status is what SiteWalk answers. */
export class PaypalError extends HttpError {
  constructor(
    public readonly paypalStatus: number,
    message: string,
    public readonly issue?: string,
  ) {
    super(paypalStatus === 422 || paypalStatus === 400 ? 409 : 502, message);
  }
}

/** PAYPAL_BASE_URL when given (tests, a proxy), else sandbox or live by the paypal_live setting. */
export const paypalBaseUrl = (live: boolean) => config.paypalBaseUrl || (live ? PAYPAL_LIVE_URL : PAYPAL_SANDBOX_URL);

const CALL_TIMEOUT_MS = 30_000;
/** Tries of one call through 429 and 5xx answers; the same PayPal-Request-Id makes a retried create or capture safe. */
const MAX_TRIES = 4;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const tokens = new Map<string, { token: string; expires: number }>();

async function call(base: string, path: string, init: RequestInit & { headers: Record<string, string> }): Promise<Response> {
  for (let attempt = 0; ; attempt++) {
    let res: Response;
    try {
      res = await fetch(`${base}${path}`, { ...init, signal: AbortSignal.timeout(CALL_TIMEOUT_MS) });
    } catch (err) {
      logger.warn({ method: init.method, path, err: (err as Error).message }, 'PayPal did not answer');
      if (attempt + 1 < MAX_TRIES) {
        await sleep(retryAfterMs(null, attempt, Date.now(), 5_000, 200));
        continue;
      }
      throw new PaypalError(502, 'PayPal did not answer. Please try again in a moment.');
    }
    if ((res.status === 429 || res.status >= 500) && attempt + 1 < MAX_TRIES) {
      const wait = retryAfterMs(res.headers.get('retry-after'), attempt, Date.now(), 10_000, 200);
      await res.body?.cancel();
      logger.info({ method: init.method, path, status: res.status, wait_ms: wait }, 'PayPal is busy: trying again');
      await sleep(wait);
      continue;
    }
    return res;
  }
}

async function failure(res: Response, method: string, path: string): Promise<PaypalError> {
  let issue = '';
  let reason = '';
  try {
    const j = (await res.json()) as { name?: string; message?: string; details?: { issue?: string; description?: string }[]; error_description?: string };
    issue = j.details?.[0]?.issue ?? j.name ?? '';
    reason = j.details?.[0]?.description ?? j.error_description ?? j.message ?? '';
  } catch {
    /* no JSON body */
  }
  logger.warn({ method, path: path.split('?')[0], status: res.status, issue }, 'PayPal refused a call');
  if (res.status === 401) return new PaypalError(502, 'The PayPal settings are not accepted by PayPal (check the client id and secret).', issue);
  if (res.status === 429) return new PaypalError(503, 'PayPal is limiting requests right now. Please try again in a few minutes.', issue);
  return new PaypalError(res.status, `PayPal answered with an error (${res.status})${reason ? `: ${reason.slice(0, 200)}` : ''}.`, issue);
}

/** An access token by client credentials, kept until a minute before it expires. */
export async function paypalToken(creds: PaypalCredentials): Promise<string> {
  const base = paypalBaseUrl(creds.live);
  const cacheKey = `${base}|${creds.clientId}|${creds.clientSecret.length}`;
  const cached = tokens.get(cacheKey);
  if (cached && cached.expires > Date.now()) return cached.token;
  const res = await call(base, '/v1/oauth2/token', {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${creds.clientId}:${creds.clientSecret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
    },
    body: 'grant_type=client_credentials',
  });
  if (!res.ok) throw await failure(res, 'POST', '/v1/oauth2/token');
  const j = (await res.json()) as { access_token: string; expires_in: number };
  tokens.set(cacheKey, { token: j.access_token, expires: Date.now() + Math.max(0, j.expires_in - 60) * 1000 });
  return j.access_token;
}

async function paypalJson<T>(creds: PaypalCredentials, method: 'GET' | 'POST', path: string, body?: unknown, requestId?: string): Promise<T> {
  const base = paypalBaseUrl(creds.live);
  const headers: Record<string, string> = { authorization: `Bearer ${await paypalToken(creds)}`, accept: 'application/json', prefer: 'return=representation' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (requestId) headers['paypal-request-id'] = requestId;
  const res = await call(base, path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  if (!res.ok) {
    if (res.status === 401) tokens.clear();
    throw await failure(res, method, path);
  }
  return (await res.json()) as T;
}

export interface PaypalOrder {
  id: string;
  status: string;
  links?: { href: string; rel: string; method?: string }[];
  purchase_units?: {
    reference_id?: string;
    custom_id?: string;
    invoice_id?: string;
    amount?: { currency_code: string; value: string };
    payments?: { captures?: PaypalCapture[] };
  }[];
}
export interface PaypalCapture {
  id: string;
  status: string;
  amount: { currency_code: string; value: string };
  custom_id?: string;
  invoice_id?: string;
}

/** Minor units as PayPal's decimal text (all currencies SiteWalk sells in have two decimals). */
export const paypalValue = (minor: number) => `${Math.floor(minor / 100)}.${String(minor % 100).padStart(2, '0')}`;
/** PayPal's decimal text as minor units. */
export const minorOf = (value: string) => Math.round(Number(value) * 100);

export interface CreateOrderInput {
  /** Idempotency: the same id creates the same order once (PayPal-Request-Id). */
  requestId: string;
  /** Our payment reference, echoed back in captures (custom_id) and webhooks. */
  reference: string;
  description: string;
  productId: string;
  currency: string;
  subtotalMinor: number;
  taxMinor: number;
  returnUrl: string;
  cancelUrl: string;
  brandName: string;
}

/** Orders v2 create (intent CAPTURE): the buyer approves at the 'payer-action' link. */
export function createOrder(creds: PaypalCredentials, o: CreateOrderInput): Promise<PaypalOrder> {
  const total = o.subtotalMinor + o.taxMinor;
  return paypalJson<PaypalOrder>(
    creds,
    'POST',
    '/v2/checkout/orders',
    {
      intent: 'CAPTURE',
      purchase_units: [
        {
          reference_id: o.reference,
          custom_id: o.reference,
          invoice_id: o.reference,
          description: o.description.slice(0, 127),
          amount: {
            currency_code: o.currency,
            value: paypalValue(total),
            breakdown: { item_total: { currency_code: o.currency, value: paypalValue(o.subtotalMinor) }, tax_total: { currency_code: o.currency, value: paypalValue(o.taxMinor) } },
          },
          items: [
            {
              name: o.description.slice(0, 127),
              quantity: '1',
              ...(o.productId ? { sku: o.productId.slice(0, 127) } : {}),
              category: 'DIGITAL_GOODS',
              unit_amount: { currency_code: o.currency, value: paypalValue(o.subtotalMinor) },
              tax: { currency_code: o.currency, value: paypalValue(o.taxMinor) },
            },
          ],
        },
      ],
      payment_source: { paypal: { experience_context: { brand_name: o.brandName.slice(0, 127), user_action: 'PAY_NOW', shipping_preference: 'NO_SHIPPING', return_url: o.returnUrl, cancel_url: o.cancelUrl } } },
    },
    o.requestId,
  );
}

export const approveUrlOf = (order: PaypalOrder) => order.links?.find((l) => l.rel === 'payer-action' || l.rel === 'approve')?.href ?? null;

export const getOrder = (creds: PaypalCredentials, orderId: string) => paypalJson<PaypalOrder>(creds, 'GET', `/v2/checkout/orders/${encodeURIComponent(orderId)}`);

/**
 * Captures an approved order. A second capture of the same order (a retry,
 * a double click) is answered by PayPal with ORDER_ALREADY_CAPTURED: the
 * order is then read, and its capture returned the same way.
 */
export async function captureOrder(creds: PaypalCredentials, orderId: string, requestId: string): Promise<PaypalCapture | null> {
  let order: PaypalOrder;
  try {
    order = await paypalJson<PaypalOrder>(creds, 'POST', `/v2/checkout/orders/${encodeURIComponent(orderId)}/capture`, {}, requestId);
  } catch (err) {
    if (!(err instanceof PaypalError && err.issue === 'ORDER_ALREADY_CAPTURED')) throw err;
    order = await getOrder(creds, orderId);
  }
  return order.purchase_units?.[0]?.payments?.captures?.[0] ?? null;
}

/** The headers PayPal signs a webhook with. */
export const WEBHOOK_HEADERS = ['paypal-auth-algo', 'paypal-cert-url', 'paypal-transmission-id', 'paypal-transmission-sig', 'paypal-transmission-time'] as const;

/** Asks PayPal whether a webhook is genuine (verify-webhook-signature); false for anything but SUCCESS. */
export async function verifyWebhook(creds: PaypalCredentials, webhookId: string, headers: Record<string, string>, rawBody: string): Promise<boolean> {
  if (WEBHOOK_HEADERS.some((h) => !headers[h])) return false;
  // The event goes back as PayPal sent it: the raw text is spliced in, not re-serialised.
  const body =
    `{"auth_algo":${JSON.stringify(headers['paypal-auth-algo'])},"cert_url":${JSON.stringify(headers['paypal-cert-url'])},` +
    `"transmission_id":${JSON.stringify(headers['paypal-transmission-id'])},"transmission_sig":${JSON.stringify(headers['paypal-transmission-sig'])},` +
    `"transmission_time":${JSON.stringify(headers['paypal-transmission-time'])},"webhook_id":${JSON.stringify(webhookId)},"webhook_event":${rawBody}}`;
  const base = paypalBaseUrl(creds.live);
  const res = await call(base, '/v1/notifications/verify-webhook-signature', {
    method: 'POST',
    headers: { authorization: `Bearer ${await paypalToken(creds)}`, 'content-type': 'application/json', accept: 'application/json' },
    body,
  });
  if (!res.ok) throw await failure(res, 'POST', '/v1/notifications/verify-webhook-signature');
  const j = (await res.json()) as { verification_status?: string };
  return j.verification_status === 'SUCCESS';
}
