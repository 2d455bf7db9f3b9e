import type { Server as HttpServer } from 'node:http';
import { Server } from 'socket.io';
import { createAdapter } from '@socket.io/redis-adapter';
import { userRoom, type ClientToServerEvents, type ServerToClientEvents } from '@sitewalk/proto';
import { config } from '../config.js';
import { createRedis } from '../redis.js';
import { logger } from '../logger.js';
import { resolveToken } from '../services/session.service.js';

export interface SocketData {
  userId: number;
  sessionId: number;
}

export type Io = Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

/** The key under which socket.io's Redis adapter and emitter talk. */
export const socketChannel = () => `${config.redisPrefix}:socket.io`;

/**
 * Socket.IO on the API's HTTP server. A socket authenticates with the session
 * token at handshake and joins `user:{id}`; the Redis adapter lets any API or
 * worker process reach it.
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
      next();
    } catch (err) {
      logger.error({ err }, 'socket auth failed');
      next(new Error('unauthorized'));
    }
  });

  io.on('connection', (socket) => {
    void socket.join(userRoom(socket.data.userId));
    socket.on('project:join', async (projectId, ack) => {
      const allowed = Number.isInteger(projectId) && !!hooks.canJoinProject && (await hooks.canJoinProject(socket.data.userId, projectId).catch(() => false));
      if (allowed) await socket.join(`project:${projectId}`);
      if (typeof ack === 'function') ack(allowed);
    });
    socket.on('project:leave', (projectId) => {
      void socket.leave(`project:${projectId}`);
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
