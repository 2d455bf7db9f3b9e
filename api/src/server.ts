import http from 'node:http';
import { createApp } from './app.js';
import { config } from '@sitewalk/core/config.js';
import { logger } from '@sitewalk/core/logger.js';
import { attachRealtime } from './realtime/gateway.js';
import { closeDb } from '@sitewalk/core/db';
import { closeRedis } from '@sitewalk/core/redis.js';
import { closeQueues } from '@sitewalk/core/queue';
import { closeEmitter } from '@sitewalk/core/realtime/emitter.js';
import { canAccessProject } from '@sitewalk/core/services/access.service.js';

/** Starts the HTTP server: API, Socket.IO and the client on one port. */
export async function startServer(port = config.port) {
  const app = createApp();
  const server = http.createServer(app.callback());
  // Node ends any request after 5 minutes by default; a video of several GB takes longer. The 30 s limit of
  // ordinary requests is Koa's (requestTimeout, which exempts uploads); headersTimeout still guards slow headers.
  server.requestTimeout = 0;
  const realtime = attachRealtime(server, { canJoinProject: canAccessProject });
  await new Promise<void>((resolve) => server.listen(port, config.host, resolve));
  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  logger.info({ port: actualPort }, `SiteWalk is listening on http://localhost:${actualPort}`);
  const close = async () => {
    await realtime.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await Promise.allSettled([closeQueues(), closeEmitter(), closeRedis(), closeDb()]);
  };
  return { server, io: realtime.io, port: actualPort, close };
}

const isMain = import.meta.url === `file://${process.argv[1]}`;
if (isMain) {
  const running = await startServer();
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    await running.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}
