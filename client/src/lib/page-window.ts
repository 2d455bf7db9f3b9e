/** Page numbers to offer: first, last, and a window around the current page; null marks a gap. */
export function pageWindow(current: number, pages: number, around = 1): (number | null)[] {
  const out: (number | null)[] = [];
  for (let p = 1; p <= pages; p++) {
    if (p === 1 || p === pages || Math.abs(p - current) <= around) out.push(p);
    else if (out[out.length - 1] !== null) out.push(null);
  }
  return out;
}

/** The list page an address names (its ?page=): a page number, else the first page. */
export function pageOf(value: string | null | undefined): number {
  return value && /^[1-9]\d{0,5}$/.test(value) ? Number(value) : 1;
}
