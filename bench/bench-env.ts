/**
 * The environment every bench runs the API code with, unless the caller set
 * it: a production build, a database, Redis prefix and data folder of the
 * bench's own (never a user's), quiet logs and loopback only. The API reads
 * its config at import, so call this before the first import of API code.
 */
export function benchEnv(own: { database: string; redisPrefix: string; dataDir: string }): void {
  const env = process.env;
  env.NODE_ENV = 'production';
  env.DATABASE_URL ??= `postgres://postgres@127.0.0.1:5432/${own.database}`;
  env.REDIS_URL ??= 'redis://127.0.0.1:6379/1';
  env.REDIS_PREFIX ??= own.redisPrefix;
  env.DATA_DIR ??= own.dataDir;
  env.APP_SECRET ??= 'bench-secret-not-for-production';
  // Request lines are logged at info; at warn a bench measures the server, not the terminal.
  env.LOG_LEVEL ??= 'warn';
  env.HOST = '127.0.0.1';
}
