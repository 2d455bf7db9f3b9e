import { afterAll } from 'vitest';
import { closeDb } from '../../api/src/core/db/index.js';
import { closeQueues } from '../../api/src/core/queue/index.js';
import { closeRedis } from '../../api/src/core/redis.js';
import { closeEmitter } from '../../api/src/core/realtime/emitter.js';

// Test files seed through the api's own modules; their connections close with the file.
afterAll(async () => {
  await Promise.allSettled([closeQueues(), closeEmitter(), closeRedis(), closeDb()]);
});
