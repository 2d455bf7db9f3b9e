import { PLAN_BYTES_PER_MB, PLAN_LIMIT_MESSAGES, fillPlanLimitMessage, type PlanLimitKind, type PlanLimitRefusal, type PlanLimitWhose } from '@sitewalk/proto';

/**
 * The rules of a plan's limits, free of the database so they are
 * unit-tested alone: given what a plan allows, what its people use and what
 * a request would add, either nothing (go ahead) or the reason a person
 * reads. The service (plan-limits.service.ts) measures usage and applies
 * them where things are created.
 */

export interface PlanLimits {
  name: string;
  /** null: no limit. */
  max_projects: number | null;
  max_storage_mb: number | null;
  max_video_minutes: number | null;
  /** YYYY-MM-DD; from that day the plan no longer lets anything be added. */
  expires_at: string;
  expired: boolean;
}

export interface PlanUsageFigures {
  projects: number;
  storage_bytes: number;
  video_seconds: number;
}

/** What a request adds; negative when it replaces something larger (a new cover, another video). */
export interface PlanAddition {
  projects?: number;
  storage_bytes?: number;
  video_seconds?: number;
}

export type { PlanLimitKind };

export interface PlanRefusal extends PlanLimitRefusal {
  /** The reason in English, as the API answers it. */
  message: string;
}

/** A plan's "MB" is a mebibyte, as file managers count. */
export const BYTES_PER_MB = PLAN_BYTES_PER_MB;

const mb = (bytes: number) => {
  const v = bytes / BYTES_PER_MB;
  return v >= 100 ? `${Math.round(v)} MB` : `${(Math.floor(v * 10) / 10).toFixed(1)} MB`;
};
/** Under a minute in seconds, else minutes with at most one decimal (rounded down: never more than there is). */
const minutes = (seconds: number) => {
  if (seconds < 60) return `${Math.floor(seconds)} s`;
  const m = Math.floor((seconds / 60) * 10) / 10;
  return `${Number.isInteger(m) ? m : m.toFixed(1)} min`;
};

/**
 * Whether `add` fits the plan. Only additions are ever refused: a request
 * that frees space (or creates nothing counted) passes even over a limit,
 * so people can always clean up. `whose` says whether the person asking
 * belongs to the plan ('ours'), uploads into a project of someone else's
 * plan ('owner') or hands a project to someone of that plan ('new_owner').
 */
export function planRefusal(plan: PlanLimits, used: PlanUsageFigures, add: PlanAddition, whose: PlanLimitWhose = 'ours'): PlanRefusal | null {
  const projects = add.projects ?? 0;
  const bytes = add.storage_bytes ?? 0;
  const seconds = add.video_seconds ?? 0;
  if (projects <= 0 && bytes <= 0 && seconds <= 0) return null;
  const refuse = (kind: PlanLimitKind, vars: Record<string, string | number>): PlanRefusal => ({
    kind,
    whose,
    vars,
    message: fillPlanLimitMessage(PLAN_LIMIT_MESSAGES[kind][whose], vars),
  });

  if (plan.expired) return refuse('expired', { plan: plan.name, date: plan.expires_at });
  if (projects > 0 && plan.max_projects != null && used.projects + projects > plan.max_projects) {
    return refuse('projects', { plan: plan.name, limit: plan.max_projects, used: used.projects });
  }
  if (bytes > 0 && plan.max_storage_mb != null) {
    const limit = plan.max_storage_mb * BYTES_PER_MB;
    if (used.storage_bytes + bytes > limit) {
      return refuse('storage', { plan: plan.name, needed: mb(bytes), left: mb(Math.max(0, limit - used.storage_bytes)), limit: plan.max_storage_mb });
    }
  }
  if (seconds > 0 && plan.max_video_minutes != null) {
    const limit = plan.max_video_minutes * 60;
    if (used.video_seconds + seconds > limit) {
      return refuse('video_minutes', { plan: plan.name, needed: minutes(seconds), left: minutes(Math.max(0, limit - used.video_seconds)), limit: plan.max_video_minutes });
    }
  }
  return null;
}
