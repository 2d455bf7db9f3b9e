/** Money as the reader's language writes it; an unknown currency code still shows its number. */
export function formatMoney(amount: number, currency: string, locale: string): string {
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(amount);
  } catch {
    return `${amount.toFixed(2)} ${currency}`;
  }
}

/** A plan limit: the number, or the words for "no limit" when there is none. */
export const limitText = (v: number | null, none: string) => (v == null ? none : String(v));
