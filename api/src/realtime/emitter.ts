import { Emitter } from '@socket.io/redis-emitter';
import type { ServerToClientEvents } from '@sitewalk/proto';
import { createRedis } from '../redis.js';
import { socketChannel } from './gateway.js';

let emitter: Emitter<ServerToClientEvents> | null = null;
let conn: ReturnType<typeof createRedis> | null = null;

/**
 * Emits to browsers from any process (workers included) through Redis:
 * `emitTo('user:7', 'notification:new', n)`.
 */
export function emitTo<E extends keyof ServerToClientEvents>(room: string, event: E, ...args: Parameters<ServerToClientEvents[E]>): void {
  if (!emitter) {
    conn = createRedis({ maxRetriesPerRequest: null });
    emitter = new Emitter<ServerToClientEvents>(conn, { key: socketChannel() });
  }
  emitter.to(room).emit(event, ...args);
}

export async function closeEmitter(): Promise<void> {
  if (conn) await conn.quit().catch(() => undefined);
  conn = null;
  emitter = null;
}
