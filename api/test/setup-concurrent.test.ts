import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * A database of its own, named after this run's test database so parallel
 * runs of other engineers never meet (and still a throw-away name: it ends in
 * _test or _test_<letters>, the only names ever dropped).
 */
function setupDatabaseUrl(): { url: string; name: string } {
  const u = new URL(process.env.DATABASE_URL!);
  const base = decodeURIComponent(u.pathname.slice(1));
  const name = base.endsWith('_test') ? `${base}_setup` : `${base}setup`;
  if (!/_test(_[a-z0-9]+)?$/.test(name)) throw new Error(`Refusing to use ${name}: not a test database name.`);
  u.pathname = `/${name}`;
  return { url: u.toString(), name };
}

async function onMaintenance<T>(url: string, work: (c: pg.Client) => Promise<T>): Promise<T> {
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const c = new pg.Client({ connectionString: admin.toString() });
  await c.connect();
  try {
    return await work(c);
  } finally {
    await c.end();
  }
}

const { url, name } = setupDatabaseUrl();
const dropIt = () => onMaintenance(url, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
afterAll(dropIt);

describe('setup (make start) on a new database', () => {
  it('can run several times at once: every run succeeds and there is exactly one first administrator', async () => {
    await dropIt();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sitewalk-setup-'));
    try {
      const env = { ...process.env, DATABASE_URL: url, DATA_DIR: dataDir, ADMIN_USERNAME: 'admin', ADMIN_EMAIL: 'admin@setup.test', ADMIN_PASSWORD: '' };
      // Three at once, as when `make start` is typed in two terminals and a service restarts.
      const runs = await Promise.allSettled(
        [1, 2, 3].map(() => run(process.execPath, ['--import', 'tsx', 'api/src/cli/setup.ts'], { cwd: ROOT, env, timeout: 120_000 })),
      );
      for (const r of runs) {
        expect(r.status, r.status === 'rejected' ? String((r.reason as { stderr?: string }).stderr ?? r.reason) : '').toBe('fulfilled');
      }
      const admins = await onMaintenance(url, async () => {
        const c = new pg.Client({ connectionString: url });
        await c.connect();
        try {
          return (await c.query<{ username: string; first_name: string | null }>('SELECT username, first_name FROM users WHERE super_admin')).rows;
        } finally {
          await c.end();
        }
      });
      // Without an invented first name ("Site"), so the dashboard says "Welcome, admin".
      expect(admins.map((a) => ({ username: a.username, first_name: a.first_name || null }))).toEqual([{ username: 'admin', first_name: null }]);
      // The one that made the administrator wrote its password down; the others said nothing.
      expect(fs.readFileSync(path.join(dataDir, 'initial-admin.txt'), 'utf8')).toMatch(/^username: admin$/m);
      const told = runs.filter((r) => r.status === 'fulfilled' && r.value.stdout.includes('First administrator created'));
      expect(told).toHaveLength(1);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 240_000);
});
