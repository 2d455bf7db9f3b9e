import type { ProfileLoad } from '@sitewalk/proto';
import type { User } from '../db/index.js';
import { getPreferences } from './notifications.service.js';
import { planProfile } from './plan-members.service.js';
import { userStats } from './user-stats.service.js';
import { userDto, visibleUser } from './users.service.js';

/**
 * SPEC §3 Profile load: the user with their stats, notification
 * preferences, and the plan they own or belong to with its slots and people.
 */
export async function loadProfile(viewer: User, id: number): Promise<ProfileLoad> {
  const user = await visibleUser(viewer, id);
  const [user_stats, notification_preferences, plan] = await Promise.all([userStats(user.id), getPreferences(user.id), planProfile(user.id)]);
  return {
    user: userDto(user),
    plan_info: plan.plan_info,
    user_stats,
    plan_slot: plan.plan_slot,
    plan_members: plan.plan_members,
    notification_preferences,
  };
}
