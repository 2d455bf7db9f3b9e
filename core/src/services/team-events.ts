import { userRoom, type TeamChangedEvent } from '@sitewalk/proto';
import { logger } from '../logger.js';
import { emitTo } from '../realtime/emitter.js';
import { teamManagerIds } from './access.service.js';
import { notify } from './notifications.service.js';

/** Tells the browsers of the team's managers (and anyone else named) that the team changed. */
export async function announceTeamChange(projectId: number, change: TeamChangedEvent['change'], also: number[] = []): Promise<void> {
  try {
    const ids = new Set([...(await teamManagerIds(projectId)), ...also]);
    for (const id of ids) emitTo(userRoom(id), 'team:changed', { id_project: projectId, change });
  } catch (err) {
    logger.warn({ err, project_id: projectId }, 'could not announce a team change');
  }
}

/** Notifies of a team change and never fails the request that caused it: the change is made either way. */
export async function tellTeamMember(userId: number, input: Parameters<typeof notify>[1], key: string): Promise<void> {
  try {
    await notify(userId, { type: 'info', ...input }, { key });
  } catch (err) {
    logger.error({ err, user_id: userId, key }, 'could not queue a team notification');
  }
}
