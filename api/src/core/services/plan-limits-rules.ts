import { PLAN_BYTES_PER_MB } from '@sitewalk/proto';

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

export type PlanLimitKind = 'expired' | 'projects' | 'storage' | 'video_minutes';

export interface PlanRefusal {
  kind: PlanLimitKind;
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
 * so people can always clean up. `ours` says whether the person asking
 * belongs to the plan (their own plan) or uploads into a project of
 * someone else's plan.
 */
export function planRefusal(plan: PlanLimits, used: PlanUsageFigures, add: PlanAddition, ours = true): PlanRefusal | null {
  const projects = add.projects ?? 0;
  const bytes = add.storage_bytes ?? 0;
  const seconds = add.video_seconds ?? 0;
  if (projects <= 0 && bytes <= 0 && seconds <= 0) return null;
  const inner = ours ? `your plan "${plan.name}"` : `the plan "${plan.name}" of this project's owner`;
  const whose = inner[0].toUpperCase() + inner.slice(1);
  const fix = ours ? 'ask for a larger plan' : 'ask the project owner for a larger plan';

  if (plan.expired) {
    return {
      kind: 'expired',
      message: `${whose} expired on ${plan.expires_at}. Nothing new can be added until it is renewed; everything already stored stays available.`,
    };
  }
  if (projects > 0 && plan.max_projects != null && used.projects + projects > plan.max_projects) {
    return {
      kind: 'projects',
      message: `${whose} allows ${plan.max_projects} project(s) and ${used.projects} already exist. Delete a project or ${fix}.`,
    };
  }
  if (bytes > 0 && plan.max_storage_mb != null) {
    const limit = plan.max_storage_mb * BYTES_PER_MB;
    if (used.storage_bytes + bytes > limit) {
      const left = Math.max(0, limit - used.storage_bytes);
      return {
        kind: 'storage',
        message: `This file needs ${mb(bytes)}, but ${inner} has only ${mb(left)} left of its ${plan.max_storage_mb} MB of storage. Delete files or ${fix}.`,
      };
    }
  }
  if (seconds > 0 && plan.max_video_minutes != null) {
    const limit = plan.max_video_minutes * 60;
    if (used.video_seconds + seconds > limit) {
      const left = Math.max(0, limit - used.video_seconds);
      return {
        kind: 'video_minutes',
        message: `This video lasts ${minutes(seconds)}, but ${inner} has only ${minutes(left)} of video left of its ${plan.max_video_minutes} min. Delete a video or ${fix}.`,
      };
    }
  }
  return null;
}
