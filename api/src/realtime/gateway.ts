import type { Server as HttpServer } from 'node:http';
import { Server } from 'socket.io';
import { createAdapter } from '@socket.io/redis-adapter';
import { projectRoom, userRoom, type ClientToServerEvents, type ServerToClientEvents } from '@sitewalk/proto';
import { config } from '@sitewalk/core/config.js';
import { createRedis } from '@sitewalk/core/redis.js';
import { logger } from '@sitewalk/core/logger.js';
import { resolveToken } from '@sitewalk/core/services/session.service.js';
import { sessionRoom, socketChannel } from '@sitewalk/core/realtime/channel.js';

export interface SocketData {
  userId: number;
  sessionId: number;
  expiresAt: number;
}

export type Io = Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

// setTimeout holds at most ~24.8 days; a longer session is re-checked at the next reconnect.
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Socket.IO on the API's HTTP server. A socket authenticates with the session
 * token at handshake (`auth: {token}`) and joins `user:{id}` and the room of
 * its session; the Redis adapter lets any API or worker process reach it.
 * A socket is closed when its session expires, so it must reconnect (and
 * re-authenticate) with a live token.
 */
export function attachRealtime(server: HttpServer, hooks: { canJoinProject?: (userId: number, projectId: number) => Promise<boolean> } = {}): { io: Io; close: () => Promise<void> } {
  const pub = createRedis({ maxRetriesPerRequest: null });
  const sub = pub.duplicate();
  const io: Io = new Server(server, {
    path: '/socket.io',
    serveClient: false,
    cors: config.corsOrigins.length ? { origin: config.corsOrigins, credentials: true } : undefined,
    adapter: createAdapter(pub, sub, { key: socketChannel() }),
  });

  io.use(async (socket, next) => {
    try {
      const token = (socket.handshake.auth as { token?: unknown })?.token;
      const found = typeof token === 'string' ? await resolveToken(token) : null;
      if (!found) return next(new Error('unauthorized'));
      socket.data.userId = found.user.id;
      socket.data.sessionId = found.session.id;
      socket.data.expiresAt = new Date(found.session.expires_at).getTime();
      next();
    } catch (err) {
      logger.error({ err }, 'socket auth failed');
      next(new Error('unauthorized'));
    }
  });

  io.on('connection', (socket) => {
    void socket.join([userRoom(socket.data.userId), sessionRoom(socket.data.sessionId)]);
    const left = socket.data.expiresAt - Date.now();
    if (left < MAX_TIMER_MS) {
      const timer = setTimeout(() => socket.disconnect(true), Math.max(0, left));
      socket.on('disconnect', () => clearTimeout(timer));
    }
    socket.on('project:join', async (projectId, ack) => {
      const allowed = Number.isInteger(projectId) && !!hooks.canJoinProject && (await hooks.canJoinProject(socket.data.userId, projectId).catch(() => false));
      if (allowed) await socket.join(projectRoom(projectId));
      if (typeof ack === 'function') ack(allowed);
    });
    socket.on('project:leave', (projectId) => {
      if (Number.isInteger(projectId)) void socket.leave(projectRoom(projectId));
    });
  });

  return {
    io,
    close: async () => {
      await io.close();
      await Promise.allSettled([pub.quit(), sub.quit()]);
    },
  };
}
