import { afterAll } from 'vitest';
import { closeDb } from '@sitewalk/core/db';
import { closeQueues } from '@sitewalk/core/queue';
import { closeRedis } from '@sitewalk/core/redis.js';
import { closeEmitter } from '@sitewalk/core/realtime/emitter.js';

// Test files seed through the api's own modules; their connections close with the file.
afterAll(async () => {
  await Promise.allSettled([closeQueues(), closeEmitter(), closeRedis(), closeDb()]);
});
