import { UnrecoverableError } from 'bullmq';
import type { Handler } from '../registry.js';

/** room.tiles: being written; refuses until then. */
export const roomTiles: Handler<'room.tiles'> = async () => {
  throw new UnrecoverableError('Room tiling is not available yet.');
};
