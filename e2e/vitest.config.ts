import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Browser end-to-end tests: the real server, workers, Postgres, Redis and an
 * SMTP sink, driven through Debian's Chromium. Defaults let
 * `npx vitest run --config e2e/vitest.config.ts` work outside `make test` too.
 */
const testEnv = {
  NODE_ENV: 'test',
  DATABASE_URL: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/sitewalk_test',
  REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379/1',
  REDIS_PREFIX: process.env.REDIS_PREFIX ?? 'sitewalk-test',
  DATA_DIR: process.env.DATA_DIR ?? '.data/test',
  APP_SECRET: process.env.APP_SECRET ?? 'test-secret-not-for-production',
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  // The browser is the only client and always comes from 127.0.0.1: without a
  // higher per-address limit, a full run's sign-ins would hit the 429.
  LOGIN_LIMIT_PER_IP: process.env.LOGIN_LIMIT_PER_IP ?? '1000',
  // The captcha widget's work in the browser, kept small for a busy CI machine.
  CAPTCHA_COST: process.env.CAPTCHA_COST ?? '20',
  // Password hashes (argon2id) at 1 MiB instead of 64: hundreds of accounts are made and signed in, and each hash
  // would take a core for a third of a second.
  PASSWORD_HASH_MEMORY_KIB: process.env.PASSWORD_HASH_MEMORY_KIB ?? '1024',
  HOST: '127.0.0.1',
};
Object.assign(process.env, testEnv);

export default defineConfig({
  root,
  test: {
    root,
    env: testEnv,
    include: ['e2e/**/*.e2e.test.ts'],
    globalSetup: ['./e2e/global-setup.ts'],
    setupFiles: ['./e2e/support/setup-file.ts'],
    // One browser at a time on a two-core machine; the tests also share the
    // settings row, so files must not interleave.
    fileParallelism: false,
    maxWorkers: 1,
    // Guards against a hung test (it runs beside the other suites on two cores), not measures of speed.
    testTimeout: 120_000,
    hookTimeout: 240_000,
    // Vitest's own retry would hide a flaky screen; a failure is reported once.
    retry: 0,
  },
});
