import { userRoom } from '@sitewalk/proto';
import { emitTo } from '../realtime/emitter.js';

/**
 * Tells these users' browsers that their profile load (plan, plan slot,
 * members, counts) changed, so the one-hour cache of SPEC §4 is refreshed
 * now instead of after signing out and in. Best effort, like every live event.
 */
export function announceProfileChange(...userIds: (number | null | undefined)[]): void {
  for (const id of new Set(userIds)) if (id) emitTo(userRoom(id), 'profile:changed');
}
