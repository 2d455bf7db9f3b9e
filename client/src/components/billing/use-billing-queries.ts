import { useQuery } from '@tanstack/react-query';
import { MESSAGES, type BillingInfo, type Invoice, type PlanPeriod, type Quote } from '@sitewalk/proto';
import { api } from '../../lib/api-client';
import { useInvalidateOnEvent } from '../../realtime/query-invalidation';

/** Every billing read in the query cache: the user's billing and the invoice lists. */
export const BILLING_READS = ['billing'] as const;

/** The filters of the administrators' invoice list, as the address holds them ('' for none). */
export interface InvoiceFilter {
  userId: string;
  status: string;
}

/** The GET /invoices query of a filter; a user id that is not a number is left out. Pure. */
export function invoicesApiQuery(f: InvoiceFilter): Record<string, string> {
  const q: Record<string, string> = { with_temp_urls: 'true' };
  if (/^\d+$/.test(f.userId)) q.user_id = f.userId;
  if (f.status) q.status = f.status;
  return q;
}

/**
 * Every invoice under the filter (GET /invoices, super admins), read again
 * when an invoice is created, paid, voided or gets its PDF ('invoice:changed').
 */
export function useInvoicesQuery(filter: InvoiceFilter) {
  useInvalidateOnEvent('invoice:changed', BILLING_READS);
  const params = invoicesApiQuery(filter);
  return useQuery({
    queryKey: [...BILLING_READS, 'invoices', params],
    queryFn: ({ signal }) => api.get<Invoice[]>('/invoices', MESSAGES.fetchInvoicesFailed, { params, signal }),
  });
}

/**
 * The user's plan, ways to pay and invoices (GET /user/billing); a payment
 * confirmed elsewhere (PayPal's webhook, an administrator) reads it again.
 */
export function useBillingQuery() {
  useInvalidateOnEvent('invoice:changed', BILLING_READS);
  return useQuery({
    queryKey: [...BILLING_READS, 'mine'],
    queryFn: ({ signal }) => api.get<BillingInfo>('/user/billing', MESSAGES.fetchBillingFailed, { signal }),
  });
}

/**
 * What a plan costs for a period with tax, as the server computes it
 * (GET /billing/quote); nothing is asked without a plan. The last quote
 * stays while the next one loads.
 */
export function useQuoteQuery(planId: number | null, period: PlanPeriod, failed: string) {
  return useQuery({
    queryKey: [...BILLING_READS, 'quote', planId, period],
    enabled: planId !== null,
    queryFn: ({ signal }) => api.get<Quote>('/billing/quote', failed, { params: { id_plan: planId, period }, signal }),
    placeholderData: (previous) => (planId === null ? undefined : previous),
  });
}
