import type { ProfileLoad } from '@sitewalk/proto';
import type { User } from '../db/index.js';
import { getPreferences } from './notifications.service.js';
import { userStats } from './user-stats.service.js';
import { userDto, visibleUser } from './users.service.js';

/**
 * SPEC §3 Profile load: the user with their stats and notification
 * preferences. Plans arrive with their own feature; until then a user has no
 * plan, no slot and no members, which the client shows as such.
 */
export async function loadProfile(viewer: User, id: number): Promise<ProfileLoad> {
  const user = await visibleUser(viewer, id);
  const [user_stats, notification_preferences] = await Promise.all([userStats(user.id), getPreferences(user.id)]);
  return {
    user: userDto(user),
    plan_info: null,
    user_stats,
    plan_slot: null,
    plan_members: { members: [], invites: [], id_owner: null },
    notification_preferences,
  };
}
