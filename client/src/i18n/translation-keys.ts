import { MESSAGES, NOTICE_KEYS, PLAN_LIMIT_MESSAGES, SOCIAL_REFUSALS } from '@sitewalk/proto';
import { ROUTES } from '../routes/route-table';
import { extractKeys } from '../lib/i18n-keys';

/**
 * Every text the client shows: the literal t()/tk() keys of the given
 * sources, the route table's titles, menu labels, breadcrumbs and
 * descriptions, the SPEC §8 message catalogue, the plan-limit refusals and
 * the notifications' keys and terms (rendered in the reader's language).
 */
export function requiredKeys(sources: readonly string[]): Set<string> {
  const keys = new Set<string>();
  for (const src of sources) for (const k of extractKeys(src)) keys.add(k);
  for (const r of ROUTES) for (const k of [r.title, r.menuLabel, r.breadcrumb, r.description]) if (k) keys.add(k);
  for (const m of Object.values(MESSAGES)) keys.add(m);
  for (const m of Object.values(PLAN_LIMIT_MESSAGES)) for (const k of Object.values(m)) keys.add(k);
  for (const m of Object.values(SOCIAL_REFUSALS)) keys.add(m);
  for (const k of NOTICE_KEYS) keys.add(k);
  return keys;
}

/** The '{name}' placeholders of a text, sorted. */
export const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
