import { purgeExpiredInvitees } from '@sitewalk/core/services/invited-accounts.service.js';
import { announceTeamChange } from '@sitewalk/core/services/team-events.js';
import { logger } from '@sitewalk/core/logger.js';
import type { Handler } from '../registry.js';

/**
 * Removes the invited accounts nobody activated before their invitation
 * expired (idempotent: a second run finds nothing), then refreshes the Team
 * cards that listed their pending invitations.
 */
export const usersPurgeInvited: Handler<'users.purge-invited'> = async () => {
  const removed = await purgeExpiredInvitees();
  for (const projectId of removed.projects) await announceTeamChange(projectId, 'invitation');
  if (removed.users.length) logger.info({ users: removed.users.length, projects: removed.projects.length }, 'expired invited accounts removed');
  return { removed: removed.users.length };
};
