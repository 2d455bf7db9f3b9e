import { Emitter } from '@socket.io/redis-emitter';
import type { ServerToClientEvents } from '@sitewalk/proto';
import { createRedis } from '../redis.js';
import { sessionRoom, socketChannel } from './channel.js';

let emitter: Emitter<ServerToClientEvents> | null = null;
let conn: ReturnType<typeof createRedis> | null = null;

function get(): Emitter<ServerToClientEvents> {
  if (!emitter) {
    conn = createRedis({ maxRetriesPerRequest: null });
    emitter = new Emitter<ServerToClientEvents>(conn, { key: socketChannel() });
  }
  return emitter;
}

/**
 * Emits to browsers from any process (workers included) through Redis:
 * `emitTo('user:7', 'notification:new', n)`.
 */
export function emitTo<E extends keyof ServerToClientEvents>(room: string, event: E, ...args: Parameters<ServerToClientEvents[E]>): void {
  get().to(room).emit(event, ...args);
}

/**
 * Tells the browsers signed in with this session that it ended (logout) and
 * closes their sockets; other sessions of the same user stay connected.
 * Both messages go through one Redis connection, so they arrive in order.
 */
export function signalSessionRevoked(sessionId: number): void {
  const e = get();
  e.to(sessionRoom(sessionId)).emit('session:revoked');
  e.in(sessionRoom(sessionId)).disconnectSockets(true);
}

/** Takes every socket of a user out of a room (a member removed from a project stops hearing it at once). */
export function removeUserFromRoom(userRoomName: string, room: string): void {
  get().in(userRoomName).socketsLeave(room);
}

export async function closeEmitter(): Promise<void> {
  if (conn) await conn.quit().catch(() => undefined);
  conn = null;
  emitter = null;
}
