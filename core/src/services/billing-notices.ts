import { formatMoney, type Invoice } from '@sitewalk/proto';

/**
 * What the buyer and the administrators read when a payment or a refund
 * changes a plan (in the app, and by e-mail as their preferences allow).
 * Pure, so every wording is unit-tested; billing.service sends them.
 */

export interface Notice {
  title: string;
  message: string;
}

type Paid = Pick<Invoice, 'method' | 'total_minor' | 'currency' | 'plan_name' | 'number' | 'reference' | 'period_start' | 'period_end' | 'username'>;

/**
 * A paid invoice. `waiting`: the plan bought is another one than the plan
 * running, so it starts when that one ends (SiteWalk does not prorate).
 */
export function paymentNotices(inv: Paid, waiting: boolean): { user: Notice; admins: Notice } {
  const money = formatMoney(inv.total_minor, inv.currency);
  const bank = inv.method === 'bank_transfer';
  const received = bank
    ? `Your bank transfer of ${money} (reference ${inv.reference}) for "${inv.plan_name}" has arrived.`
    : `Thank you: ${money} received by PayPal for "${inv.plan_name}".`;
  const plan = waiting
    ? `"${inv.plan_name}" starts on ${inv.period_start}, when your current plan ends, and runs until ${inv.period_end}.`
    : `Your plan "${inv.plan_name}" now runs until ${inv.period_end}.`;
  return {
    user: { title: bank ? 'Bank transfer received' : 'Payment received', message: `${received} ${plan} Invoice ${inv.number}.` },
    admins: {
      title: bank ? 'Bank transfer marked paid' : 'Payment received',
      message: `${inv.username} paid invoice ${inv.number} (${money}, ${bank ? 'bank transfer' : 'PayPal'}): "${inv.plan_name}" ${waiting ? `from ${inv.period_start} ` : ''}until ${inv.period_end}.`,
    },
  };
}

/** A refunded invoice, voided by its credit note; `planEnds` is the plan's expiry after the refund (null: no plan). */
export function refundNotices(
  inv: Pick<Invoice, 'total_minor' | 'currency' | 'plan_name' | 'number' | 'username'>,
  creditNumber: string,
  planEnds: string | null,
  today: string,
): { user: Notice; admins: Notice } {
  const money = formatMoney(inv.total_minor, inv.currency);
  const plan = planEnds == null ? '' : planEnds <= today ? ` Your plan ended on ${planEnds}.` : ` Your plan now runs until ${planEnds}.`;
  return {
    user: { title: 'Payment refunded', message: `${money} for "${inv.plan_name}" was refunded: invoice ${inv.number} is voided by credit note ${creditNumber}.${plan}` },
    admins: {
      title: 'Payment refunded',
      message: `PayPal refunded ${inv.username}'s payment of ${money} (invoice ${inv.number}, credit note ${creditNumber})${planEnds ? `; the plan now ends on ${planEnds}` : ''}.`,
    },
  };
}
