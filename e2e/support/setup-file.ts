import { afterAll } from 'vitest';
import { closeDb } from '../../api/src/db/index.js';
import { closeQueues } from '../../api/src/queue/index.js';
import { closeRedis } from '../../api/src/redis.js';
import { closeEmitter } from '../../api/src/realtime/emitter.js';

// Test files seed through the api's own modules; their connections close with the file.
afterAll(async () => {
  await Promise.allSettled([closeQueues(), closeEmitter(), closeRedis(), closeDb()]);
});
