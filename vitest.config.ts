import { defineConfig } from 'vitest/config';
import aloneTests from './test/alone-tests.json' with { type: 'json' };

/** Test environment defaults so `npx vitest` works outside `make test` too. */
const testEnv = {
  NODE_ENV: 'test',
  DATABASE_URL: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/sitewalk_test',
  REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379/1',
  REDIS_PREFIX: process.env.REDIS_PREFIX ?? 'sitewalk-test',
  DATA_DIR: process.env.DATA_DIR ?? '.data/test',
  APP_SECRET: process.env.APP_SECRET ?? 'test-secret-not-for-production',
  TRUST_PROXY: '1',
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  // Tests solve captchas in Node: little work per try keeps each solve well under a second.
  CAPTCHA_COST: process.env.CAPTCHA_COST ?? '20',
  // Password hashes (argon2id) at 1 MiB instead of 64: hundreds of accounts are made and signed in, and each hash
  // would take a core for a third of a second.
  PASSWORD_HASH_MEMORY_KIB: process.env.PASSWORD_HASH_MEMORY_KIB ?? '1024',
};
Object.assign(process.env, testEnv);

/** Files that change a site-wide setting for a while run alone, in a step of their own (test/alone-tests.json). */
const alone = process.env.ALONE_TESTS ? [] : aloneTests.files;

export default defineConfig({
  test: {
    env: testEnv,
    globalSetup: ['./test/global-setup.ts'],
    // Guards against a hung test, not measures of speed: `make test` runs these files beside the
    // browser suite on two cores, where a test of seconds can take a minute.
    testTimeout: 90_000,
    hookTimeout: 180_000,
    // Two cores: more parallel files only queue up behind Postgres and argon2.
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: 'proto', include: ['proto/src/**/*.test.ts'] } },
      { extends: true, test: { name: 'core', include: ['core/src/**/*.test.ts'] } },
      { extends: true, test: { name: 'api', include: ['api/src/**/*.test.ts', 'api/test/**/*.test.ts'], exclude: alone } },
      { extends: true, test: { name: 'workers', include: ['workers/src/**/*.test.ts', 'workers/test/**/*.test.ts'], exclude: alone } },
      { extends: true, test: { name: 'client', include: ['client/src/**/*.test.ts'] } },
      { extends: true, test: { name: 'scripts', include: ['test/**/*.test.ts'] } },
    ],
  },
});
