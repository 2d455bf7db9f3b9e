import { z } from 'zod';
import { idField } from './ids.js';
import { PLAN_PERIODS, type PlanPeriod } from './plans.js';

/**
 * Billing: paying for a plan by PayPal or bank transfer, invoices and the
 * buyer's company (SPEC §7 "Invoices", §2 /billing, /checkout, /invoices,
 * /mycompany). `data` of each answer:
 *
 *   GET    /user/billing                 → BillingInfo      the signed-in user's plan, prices, methods and invoices
 *   GET    /billing/quote?id_plan&period → Quote            what the server will charge (tax included)
 *   POST   /billing/checkout             → CheckoutResult   {id_plan, period, method}: a pending invoice (+ PayPal approval URL or bank details)
 *   POST   /billing/paypal/capture       → Invoice          {invoice_id}: captures the approved PayPal order; paid invoice
 *   POST   /billing/paypal/webhook       → {received: true} PayPal's webhook (raw body, verified through PayPal)
 *   GET    /invoices                     → Invoice[]        own invoices; user_id and status filter for super admins; with_temp_urls
 *   GET    /invoices/{id}                → Invoice          own (or any for super admins); another user's is 404
 *   PUT    /invoices/{id}/mark-paid      → Invoice          super admin: pending → paid, extends the plan
 *   DELETE /invoices/{id}                → {id}             super admin: pending or void only (409 for paid)
 *   GET    /company                      → Company | null   the signed-in user's company
 *   PUT    /company                      → Company          creates or changes it ("Company name is required")
 *   DELETE /company                      → {id}
 *
 * Money is in integer minor units (cents) with a three-letter currency; the
 * browser only names a plan and a period, the server computes the amount.
 * Tax rates are in basis points (1900 = 19 %).
 */

export const PAYMENT_METHODS = ['paypal', 'bank_transfer'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export const INVOICE_STATUSES = ['pending', 'paid', 'void'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

export const INVOICE_KINDS = ['invoice', 'credit_note'] as const;
export type InvoiceKind = (typeof INVOICE_KINDS)[number];

const period = z.enum(PLAN_PERIODS, { message: "The period is 'month' or 'year'." });
const planId = z.coerce.number({ message: 'Choose a plan.' }).int('Choose a plan.').positive('Choose a plan.');

export const quoteQuerySchema = z.object({ id_plan: planId, period }).strict();
export type QuoteQuery = z.infer<typeof quoteQuerySchema>;

/** Only the plan, the period and the way to pay: any amount a browser sends is not read (strip, not strict). */
export const checkoutSchema = z.object({
  id_plan: planId,
  period,
  method: z.enum(PAYMENT_METHODS, { message: "Pay with 'paypal' or 'bank_transfer'." }),
});
export type CheckoutRequest = z.infer<typeof checkoutSchema>;

export const captureSchema = z.object({ invoice_id: idField }).strict();
export type CaptureRequest = z.infer<typeof captureSchema>;

const flag = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

export const invoiceListQuerySchema = z
  .object({
    user_id: z.coerce.number().int().positive('user_id must be a user id.').optional(),
    status: z.enum(INVOICE_STATUSES, { message: 'The status is pending, paid or void.' }).optional(),
    with_temp_urls: flag.optional(),
  })
  .strict();
export type InvoiceListQuery = z.infer<typeof invoiceListQuerySchema>;

export const invoiceGetQuerySchema = z.object({ with_temp_urls: flag.optional() }).strict();

const text = (label: string, max: number) => z.string().trim().max(max, `${label} must be at most ${max} characters.`);

export const companyFields = {
  name: z.string().trim().min(1, 'Company name is required').max(200, 'Company name must be at most 200 characters.'),
  tax_id: text('The tax id', 50),
  street: text('The street', 200),
  city: text('The city', 100),
  postal_code: text('The postal code', 20),
  province: text('The province', 100),
  country: text('The country', 100),
  email: z.union([z.literal(''), z.email({ message: 'Invalid email format' })]),
};
export const companySaveSchema = z.object(companyFields).partial().strict().refine((o) => Object.keys(o).length > 0, { message: 'Nothing to update.' });
export type CompanySaveRequest = z.input<typeof companySaveSchema>;

export interface Company {
  id: number;
  id_user: number;
  name: string;
  tax_id: string;
  street: string;
  city: string;
  postal_code: string;
  province: string;
  country: string;
  email: string;
  updated_at: string;
}

export interface PlanPrice {
  period: PlanPeriod;
  amount_minor: number;
  currency: string;
}

export interface BillablePlan {
  id: number;
  name: string;
  description: string;
  prices: PlanPrice[];
}

export interface Quote {
  id_plan: number;
  plan_name: string;
  period: PlanPeriod;
  currency: string;
  subtotal_minor: number;
  tax_rate_bp: number;
  tax_minor: number;
  total_minor: number;
  /** The plan runs from here (YYYY-MM-DD): the end of the current plan, or today when there is none or it expired. */
  period_start: string;
  /** ... to here, the new expiry date. */
  period_end: string;
}

export interface BankDetails {
  bank_name: string;
  bank_account_name: string;
  bank_account_number: string;
  bank_swift_bic: string;
  bank_iban: string;
  bank_address: string;
}

export interface InvoiceParty {
  name: string;
  tax_id: string;
  address: string[];
  email: string;
}

export interface InvoiceLine {
  description: string;
  quantity: number;
  unit_minor: number;
  amount_minor: number;
}

export interface Invoice {
  id: number;
  id_user: number;
  username: string;
  kind: InvoiceKind;
  /** `2026-000042`; null until paid (a pending invoice has only its payment reference). */
  number: string | null;
  /** The invoice a credit note voids. */
  id_credited: number | null;
  status: InvoiceStatus;
  method: PaymentMethod;
  reference: string;
  id_plan: number | null;
  plan_name: string;
  period: PlanPeriod;
  period_start: string;
  period_end: string;
  currency: string;
  subtotal_minor: number;
  tax_rate_bp: number;
  tax_minor: number;
  total_minor: number;
  seller: InvoiceParty;
  buyer: InvoiceParty;
  lines: InvoiceLine[];
  paid_at: string | null;
  created_at: string;
  /** True once the worker has written the PDF. */
  pdf_ready: boolean;
  /** With with_temp_urls=true: a short-lived signed link to the PDF. */
  pdf_url?: string | null;
  /** Bank details to pay a pending bank-transfer invoice. */
  bank?: BankDetails | null;
}

export interface CheckoutResult {
  invoice: Invoice;
  /** PayPal: where the buyer approves the payment. */
  approve_url: string | null;
  /** Bank transfer: where to send the money, with `invoice.reference`. */
  bank: BankDetails | null;
}

export interface BillingInfo {
  plan: {
    id_plan: number;
    name: string;
    expires_at: string;
    days_left: number;
    expired: boolean;
    is_owner: boolean;
  } | null;
  plans: BillablePlan[];
  methods: PaymentMethod[];
  tax_rate_bp: number;
  invoices: Invoice[];
  company: Company | null;
}

/** What a plan costs for a period in minor units, or null when it is not sold for that period (one rule for server and screens). */
export function planPriceMinor(
  plan: { price: string | number; period: PlanPeriod; price_month_minor?: number | null; price_year_minor?: number | null },
  period: PlanPeriod,
): number | null {
  const own = period === 'month' ? plan.price_month_minor : plan.price_year_minor;
  if (own != null) return own;
  // A plan made before billing existed is priced by its one price for its own period.
  return plan.period === period ? Math.round(Number(plan.price) * 100) : null;
}

/** How long a signed link to an invoice PDF (with_temp_urls) works: 15 minutes. */
export const INVOICE_PDF_URL_TTL_SEC = 15 * 60;

/** Invoice numbers: the year and a six-digit sequence, gapless per year. */
export const formatInvoiceNumber = (year: number, seq: number) => `${year}-${String(seq).padStart(6, '0')}`;

/** An amount in minor units as text: 12345, 'USD' → '123.45 USD'. */
export const formatMoney = (minor: number, currency: string) => {
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(minor);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')} ${currency}`;
};

/** The PayPal webhook events SiteWalk acts on. */
export const PAYPAL_EVENTS = ['PAYMENT.CAPTURE.COMPLETED', 'PAYMENT.CAPTURE.DENIED', 'PAYMENT.CAPTURE.REFUNDED'] as const;
