import { tk } from './i18n-keys';
import { PLAN_BYTES_PER_MB, PLAN_LIMIT_KINDS, PLAN_LIMIT_WHOSE, PLAN_LIMIT_MESSAGES, type PlanInfo, type PlanLimitRefusal } from '@sitewalk/proto';

/**
 * Plan limits on the client: the reason of a refusal in the reader's
 * language (from `data.plan_limit` of the API's 403), and the usage rows of
 * the profile's Plan card. Free of React so it is unit-tested alone.
 */

type Translate = (key: string, vars?: Record<string, unknown>) => string;

function refusalOf(data: unknown): PlanLimitRefusal | null {
  const r = (data as { plan_limit?: Partial<PlanLimitRefusal> } | null)?.plan_limit;
  if (!r || !PLAN_LIMIT_KINDS.includes(r.kind as never) || !PLAN_LIMIT_WHOSE.includes(r.whose as never) || typeof r.vars !== 'object' || !r.vars) return null;
  return r as PlanLimitRefusal;
}

/** The translated reason of a plan-limit refusal, or null when the answer is something else. */
export function planLimitText(data: unknown, t: Translate): string | null {
  const r = refusalOf(data);
  return r ? t(PLAN_LIMIT_MESSAGES[r.kind][r.whose], r.vars) : null;
}

export interface UsageRow {
  /** Translation key of the label. */
  label: string;
  /** Translation key and values of "x of y" (or "x, no limit"). */
  text: { key: string; vars: Record<string, string | number> };
  /** 0..100 when there is a limit, else null (no bar). */
  percent: number | null;
  /** At or over the limit. */
  full: boolean;
}

const oneDecimal = (n: number) => (Math.floor(n * 10) / 10).toFixed(1).replace(/\.0$/, '');

function row(label: string, used: number, limit: number | null, unit: 'count' | 'mb' | 'min'): UsageRow {
  const show = (n: number) => (unit === 'count' ? String(n) : oneDecimal(n));
  const keys = {
    count: [tk('{used} of {limit}'), tk('{used}, no limit')],
    mb: [tk('{used} MB of {limit} MB'), tk('{used} MB, no limit')],
    min: [tk('{used} min of {limit} min'), tk('{used} min, no limit')],
  }[unit];
  if (limit == null) return { label, text: { key: keys[1], vars: { used: show(used) } }, percent: null, full: false };
  const percent = limit === 0 ? 100 : Math.min(100, Math.round((used / limit) * 100));
  return { label, text: { key: keys[0], vars: { used: show(used), limit: show(limit) } }, percent, full: used >= limit };
}

/** Projects, storage and video minutes of the plan against its limits. */
export function planUsageRows(info: PlanInfo): UsageRow[] {
  return [
    row(tk('Projects'), info.usage.projects, info.max_projects, 'count'),
    row(tk('Storage'), info.usage.storage_bytes / PLAN_BYTES_PER_MB, info.max_storage_mb, 'mb'),
    row(tk('Video minutes'), info.usage.video_seconds / 60, info.max_video_minutes, 'min'),
  ];
}
