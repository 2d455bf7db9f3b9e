/**
 * Pages of the visits screen: the visits come 20 at a time with page links,
 * and the project chooser gets every project however many there are (the
 * API gives at most 100 per answer). Pure, unit-tested.
 */

export const VISITS_PER_PAGE = 20;
/** The API's largest page (pageQuerySchema's per_page maximum). */
export const API_MAX_PER_PAGE = 100;
/** A guard against a server whose total never stops growing: 100 000 items. */
const MAX_PAGES = 1000;

interface PageAnswer<T> {
  items: T[];
  total: number;
}

/** Every item of a paged list, asking page after page until the total is reached. */
export async function allPages<T>(fetchPage: (page: number, perPage: number) => Promise<PageAnswer<T>>): Promise<T[]> {
  const items: T[] = [];
  for (let page = 1; page <= MAX_PAGES; page++) {
    const answer = await fetchPage(page, API_MAX_PER_PAGE);
    items.push(...answer.items);
    if (answer.items.length < API_MAX_PER_PAGE || items.length >= answer.total) break;
  }
  return items;
}
