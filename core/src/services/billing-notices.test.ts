import { describe, expect, it } from 'vitest';
import { paymentNotices, refundNotices } from './billing-notices.js';

const inv = {
  method: 'paypal' as const,
  total_minor: 5938,
  currency: 'EUR',
  plan_name: 'Pro',
  number: '2026-000042',
  reference: 'SW-ABCDEFGHJK',
  period_start: '2026-12-20',
  period_end: '2027-01-20',
  username: 'rania',
};

describe('billing notices', () => {
  it('thank for a PayPal payment and name the new end of the plan and the invoice', () => {
    const n = paymentNotices(inv, false);
    expect(n.user).toEqual({ title: 'Payment received', message: 'Thank you: 59.38 EUR received by PayPal for "Pro". Your plan "Pro" now runs until 2027-01-20. Invoice 2026-000042.' });
    expect(n.admins).toEqual({ title: 'Payment received', message: 'rania paid invoice 2026-000042 (59.38 EUR, PayPal): "Pro" until 2027-01-20.' });
  });

  it('say a bank transfer arrived, by its reference, and when a changed plan starts', () => {
    const n = paymentNotices({ ...inv, method: 'bank_transfer' }, true);
    expect(n.user.title).toBe('Bank transfer received');
    expect(n.user.message).toBe(
      'Your bank transfer of 59.38 EUR (reference SW-ABCDEFGHJK) for "Pro" has arrived. "Pro" starts on 2026-12-20, when your current plan ends, and runs until 2027-01-20. Invoice 2026-000042.',
    );
    expect(n.admins).toEqual({ title: 'Bank transfer marked paid', message: 'rania paid invoice 2026-000042 (59.38 EUR, bank transfer): "Pro" from 2026-12-20 until 2027-01-20.' });
  });

  it('tell a refund with its credit note and whether the plan still runs', () => {
    expect(refundNotices(inv, '2026-000043', '2026-12-20', '2026-12-01').user.message).toBe(
      '59.38 EUR for "Pro" was refunded: invoice 2026-000042 is voided by credit note 2026-000043. Your plan now runs until 2026-12-20.',
    );
    expect(refundNotices(inv, '2026-000043', '2026-11-28', '2026-11-28').user.message).toMatch(/Your plan ended on 2026-11-28\.$/);
    expect(refundNotices(inv, '2026-000043', null, '2026-11-28').user.message).toMatch(/credit note 2026-000043\.$/);
    expect(refundNotices(inv, '2026-000043', '2026-11-28', '2026-11-28').admins.message).toBe(
      "PayPal refunded rania's payment of 59.38 EUR (invoice 2026-000042, credit note 2026-000043); the plan now ends on 2026-11-28.",
    );
  });
});
