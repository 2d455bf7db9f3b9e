import { describe, expect, it } from 'vitest';
import { BYTES_PER_MB, planRefusal, type PlanLimits } from './plan-limits-rules.js';

const plan: PlanLimits = { name: 'Team', max_projects: 3, max_storage_mb: 10, max_video_minutes: 5, expires_at: '2027-01-31', expired: false };
const none = { projects: 0, storage_bytes: 0, video_seconds: 0 };

describe('plan limit rules', () => {
  it('allows a project up to the limit and refuses the next one', () => {
    expect(planRefusal(plan, { ...none, projects: 2 }, { projects: 1 })).toBeNull();
    const r = planRefusal(plan, { ...none, projects: 3 }, { projects: 1 });
    expect(r?.kind).toBe('projects');
    expect(r?.message).toBe('Your plan "Team" allows 3 project(s) and 3 already exist. Delete a project or ask for a larger plan.');
  });

  it('allows storage exactly up to the limit and refuses one byte more', () => {
    const used = { ...none, storage_bytes: 9 * BYTES_PER_MB };
    expect(planRefusal(plan, used, { storage_bytes: BYTES_PER_MB })).toBeNull();
    const r = planRefusal(plan, used, { storage_bytes: BYTES_PER_MB + 1 });
    expect(r?.kind).toBe('storage');
    expect(r?.message).toBe('This file needs 1.0 MB, but your plan "Team" has only 1.0 MB left of its 10 MB of storage. Delete files or ask for a larger plan.');
  });

  it('counts video minutes, and names the owner\'s plan for someone uploading into another person\'s project', () => {
    const used = { ...none, video_seconds: 4 * 60 };
    expect(planRefusal(plan, used, { video_seconds: 60 })).toBeNull();
    const r = planRefusal(plan, used, { video_seconds: 90 }, 'owner');
    expect(r?.kind).toBe('video_minutes');
    expect(r?.message).toContain('but the plan "Team" of this project\'s owner has only 1 min of video left of its 5 min');
    expect(r?.message).toContain('ask the project owner for a larger plan');
    expect(planRefusal(plan, { ...none, video_seconds: 30 }, { video_seconds: 5 * 60 })?.message).toContain('This video lasts 5 min, but your plan "Team" has only 4.5 min of video left');
  });

  it('never refuses what frees space or adds nothing counted, even over a limit', () => {
    const over = { projects: 9, storage_bytes: 99 * BYTES_PER_MB, video_seconds: 9999 };
    expect(planRefusal(plan, over, { storage_bytes: -5 })).toBeNull();
    expect(planRefusal(plan, over, { storage_bytes: -5, video_seconds: -60 })).toBeNull();
    expect(planRefusal(plan, over, {})).toBeNull();
    expect(planRefusal({ ...plan, expired: true }, none, { storage_bytes: 0 })).toBeNull();
  });

  it('treats a null limit as no limit', () => {
    const open = { ...plan, max_projects: null, max_storage_mb: null, max_video_minutes: null };
    expect(planRefusal(open, { projects: 1e6, storage_bytes: 1e15, video_seconds: 1e9 }, { projects: 1, storage_bytes: 1e12, video_seconds: 1e6 })).toBeNull();
  });

  it('a zero limit allows nothing of that kind', () => {
    expect(planRefusal({ ...plan, max_projects: 0 }, none, { projects: 1 })?.kind).toBe('projects');
    expect(planRefusal({ ...plan, max_storage_mb: 0 }, none, { storage_bytes: 1 })?.kind).toBe('storage');
  });

  it('an expired plan adds nothing, whatever room is left', () => {
    const r = planRefusal({ ...plan, expired: true }, none, { projects: 1 });
    expect(r).toEqual({
      kind: 'expired',
      whose: 'ours',
      vars: { plan: 'Team', date: '2027-01-31' },
      message: 'Your plan "Team" expired on 2027-01-31. Nothing new can be added until it is renewed; everything already stored stays available.',
    });
  });

  it('shows 100 MB and more in whole MB, less with a decimal', () => {
    const big = { ...plan, max_storage_mb: 2048 };
    const r = planRefusal(big, { ...none, storage_bytes: 2000 * BYTES_PER_MB }, { storage_bytes: 300 * BYTES_PER_MB });
    expect(r?.message).toContain('needs 300 MB');
    expect(r?.message).toContain('only 48.0 MB left of its 2048 MB');
  });
});
