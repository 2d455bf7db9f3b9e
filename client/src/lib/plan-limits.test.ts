import { describe, expect, it } from 'vitest';
import type { PlanInfo } from '@sitewalk/proto';
import { planLimitText, planUsageRows } from './plan-limits';

/** Fills {placeholders} like i18next does, after "translating" by marking the text. */
const t = (key: string, vars: Record<string, unknown> = {}) => `[${key.replace(/\{(\w+)\}/g, (_, k: string) => String(vars[k]))}]`;

const info = (over: Partial<PlanInfo> = {}): PlanInfo => ({
  id_subscription: 1,
  id_plan: 1,
  name: 'Team',
  price: 10,
  currency: 'USD',
  period: 'month',
  expires_at: '2099-01-01',
  days_left: 100,
  expired: false,
  is_owner: true,
  role: null,
  max_projects: 5,
  max_storage_mb: 100,
  max_video_minutes: null,
  usage: { projects: 5, storage_bytes: 25.55 * 1024 * 1024, video_seconds: 150 },
  ...over,
});

describe('plan limits on the client', () => {
  it('says a refusal from its figures, through the translation', () => {
    const data = { plan_limit: { kind: 'storage', whose: 'owner', vars: { plan: 'Team', needed: '2.0 MB', left: '0.5 MB', limit: 10 } } };
    expect(planLimitText(data, t)).toBe(
      '[This file needs 2.0 MB, but the plan "Team" of this project\'s owner has only 0.5 MB left of its 10 MB of storage. Delete files or ask the project owner for a larger plan.]',
    );
    expect(planLimitText({ plan_limit: { kind: 'projects', whose: 'ours', vars: { plan: 'Team', limit: 2, used: 2 } } }, t)).toBe(
      '[Your plan "Team" allows 2 project(s) and 2 already exist. Delete a project or ask for a larger plan.]',
    );
  });

  it('leaves other answers alone', () => {
    expect(planLimitText(null, t)).toBeNull();
    expect(planLimitText({ issues: [] }, t)).toBeNull();
    expect(planLimitText({ plan_limit: { kind: 'weather', whose: 'ours', vars: {} } }, t)).toBeNull();
    expect(planLimitText({ plan_limit: { kind: 'storage', whose: 'someone', vars: {} } }, t)).toBeNull();
  });

  it('shows each usage against its limit, full ones marked, no bar without a limit', () => {
    expect(planUsageRows(info())).toEqual([
      { label: 'Projects', text: { key: '{used} of {limit}', vars: { used: '5', limit: '5' } }, percent: 100, full: true },
      { label: 'Storage', text: { key: '{used} MB of {limit} MB', vars: { used: '25.5', limit: '100' } }, percent: 26, full: false },
      { label: 'Video minutes', text: { key: '{used} min, no limit', vars: { used: '2.5' } }, percent: null, full: false },
    ]);
    expect(planUsageRows(info({ max_projects: 0, usage: { projects: 0, storage_bytes: 0, video_seconds: 0 } }))[0]).toMatchObject({ percent: 100, full: true });
  });
});
