import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

/**
 * Throw-away PostgreSQL and Redis servers that a test starts, restarts and
 * removes itself, on spare ports, so it can take them away from the API
 * without disturbing anyone else's database.
 */

const run = promisify(execFile);

/**
 * Last-resort clean-up when the test process ends without its afterAll
 * (a hook timeout, a killed worker): no server of a test outlives it.
 */
const leftovers = new Set<() => void>();
process.once('exit', () => {
  for (const clean of leftovers) {
    try {
      clean();
    } catch {
      // Exiting anyway; nothing else to do.
    }
  }
});

/** A TCP port nothing listens on now: taken from the OS, then released. */
export async function sparePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Polls `probe` until it returns true; fails with `what` after `timeoutMs`. */
export async function until(probe: () => boolean | Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (await probe()) return;
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The newest PostgreSQL bin directory (Debian keeps them in /usr/lib/postgresql/<version>/bin), else the one on PATH. */
function postgresBinDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = fs.existsSync(root)
    ? fs.readdirSync(root).filter((v) => fs.existsSync(path.join(root, v, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length) return path.join(root, versions[0], 'bin');
  const onPath = (process.env.PATH ?? '').split(path.delimiter).find((d) => d && fs.existsSync(path.join(d, 'initdb')) && fs.existsSync(path.join(d, 'pg_ctl')));
  if (onPath) return onPath;
  throw new Error('No PostgreSQL server programs (initdb, pg_ctl): install postgresql (make test does).');
}

/** initdb refuses root: as root the cluster belongs to the `postgres` system user, created when missing. */
async function postgresUser(): Promise<{ uid: number; gid: number }> {
  const ids = async () => ({ uid: Number((await run('id', ['-u', 'postgres'])).stdout.trim()), gid: Number((await run('id', ['-g', 'postgres'])).stdout.trim()) });
  try {
    return await ids();
  } catch {
    await run('useradd', ['--system', '--no-create-home', 'postgres']).catch(() => undefined);
    return ids();
  }
}

export interface ThrowawayPostgres {
  port: number;
  url(database: string): string;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** `pg_ctl restart -m fast`: open connections are cut, the server is back when this resolves. */
  restart(): Promise<void>;
  /** Stops the server for good and removes its files. */
  destroy(): Promise<void>;
}

/**
 * initdb + pg_ctl into a temporary directory. initdb refuses to run as root,
 * so as root the cluster belongs to the `postgres` system user.
 */
export async function startPostgres(): Promise<ThrowawayPostgres> {
  const bin = postgresBinDir();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sitewalk-pg-'));
  const dataDir = path.join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const { uid, gid } = await postgresUser();
    fs.chownSync(dir, uid, gid);
  }
  const pg = (tool: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', path.join(bin, tool), ...args], { cwd: dir }) : run(path.join(bin, tool), args, { cwd: dir });

  const port = await sparePort();
  await pg('initdb', ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8', '--locale', 'C']);
  // Durability is not the point of a throw-away server; speed on a busy machine is.
  const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=50`;
  const ctl = (...args: string[]) => pg('pg_ctl', ['-D', dataDir, '-l', path.join(dir, 'server.log'), '-w', '-t', '120', ...args]);
  await ctl('-o', opts, 'start');
  let running = true;
  const pgCtlPath = path.join(bin, 'pg_ctl');
  const killNow = () => {
    const args = [pgCtlPath, '-D', dataDir, '-m', 'immediate', '-w', 'stop'];
    if (running) execFileSync(asRoot ? 'runuser' : args[0], asRoot ? ['-u', 'postgres', '--', ...args] : args.slice(1), { stdio: 'ignore' });
    fs.rmSync(dir, { recursive: true, force: true });
  };
  leftovers.add(killNow);

  return {
    port,
    url: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    stop: async () => {
      await ctl('-m', 'fast', 'stop');
      running = false;
    },
    start: async () => {
      await ctl('-o', opts, 'start');
      running = true;
    },
    restart: async () => {
      await ctl('-m', 'fast', '-o', opts, 'restart');
      running = true;
    },
    destroy: async () => {
      leftovers.delete(killNow);
      if (running) await ctl('-m', 'immediate', 'stop').catch(() => undefined);
      running = false;
      fs.rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
    },
  };
}

export interface ThrowawayRedis {
  port: number;
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops and starts the server on the same port; with --save '' it comes back empty. */
  restart(): Promise<void>;
  destroy(): Promise<void>;
}

/** Answers true when something on the port replies +PONG to PING. */
function redisAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(2_000, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (d) => done(d.toString().startsWith('+PONG')));
  });
}

/** `redis-server --port <spare> --save ''` as a child of the test. */
export async function startRedis(): Promise<ThrowawayRedis> {
  const port = await sparePort();
  let child: ChildProcess | null = null;

  const start = async () => {
    const c = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    child = c;
    await until(async () => {
      if (c.exitCode !== null) throw new Error(`redis-server on port ${port} exited with code ${c.exitCode}`);
      return redisAnswers(port);
    }, `redis-server on port ${port}`);
  };
  const stop = async () => {
    const c = child;
    child = null;
    if (!c || c.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => c.once('exit', () => resolve()));
    c.kill('SIGTERM');
    await exited;
  };

  const killNow = () => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
  };
  leftovers.add(killNow);
  await start();
  return {
    port,
    url: `redis://127.0.0.1:${port}/0`,
    start,
    stop,
    restart: async () => {
      await stop();
      await start();
    },
    destroy: async () => {
      leftovers.delete(killNow);
      await stop();
    },
  };
}
