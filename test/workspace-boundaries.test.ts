import fs from 'node:fs';
import path from 'node:path';
import madge from 'madge';
import { describe, expect, it } from 'vitest';

const repo = path.resolve(import.meta.dirname, '..');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sourceFiles(p) : /\.tsx?$/.test(e.name) ? [p] : [];
  });
}

/** Every module a file imports, resolved to a repository path (packages by name). */
function importsOf(file: string): string[] {
  const src = fs.readFileSync(file, 'utf8');
  return [...src.matchAll(/(?:from|import\()\s*['"]([^'"]+)['"]/g)].map(([, spec]) =>
    spec.startsWith('.') ? path.relative(repo, path.resolve(path.dirname(file), spec)) : spec,
  );
}

/** The workspaces, each with the other workspaces it may import (by package name or by path). */
const ALLOWED: Record<string, string[]> = {
  proto: [],
  core: ['proto'],
  api: ['proto', 'core'],
  workers: ['proto', 'core'],
  client: ['proto'],
};
const WORKSPACES = Object.keys(ALLOWED);

/** The workspace an import names, or null for a third-party package or Node's own. */
function workspaceOf(spec: string): string | null {
  const pkg = /^@sitewalk\/([a-z]+)/.exec(spec);
  if (pkg) return pkg[1];
  const first = spec.split(path.sep)[0];
  return WORKSPACES.includes(first) ? first : null;
}

describe('the workspaces depend on each other one way only', () => {
  for (const ws of WORKSPACES) {
    it(`${ws} imports only ${ALLOWED[ws].join(' and ') || 'third-party packages'} of the other workspaces`, () => {
      const offending = sourceFiles(path.join(repo, ws, 'src')).flatMap((f) =>
        importsOf(f)
          .filter((i) => {
            const target = workspaceOf(i);
            return target !== null && target !== ws && !ALLOWED[ws].includes(target);
          })
          .map((i) => `${path.relative(repo, f)} → ${i}`),
      );
      expect(offending).toEqual([]);
    });
  }

  it('no module of any workspace imports itself back through others (no import circle)', async () => {
    const graph = await madge(
      WORKSPACES.map((ws) => path.join(repo, ws, 'src')),
      { fileExtensions: ['ts', 'tsx'], tsConfig: path.join(repo, 'tsconfig.base.json') },
    );
    expect(graph.circular()).toEqual([]);
    // madge parses every file of every workspace: minutes on a busy two-core machine, not a hang.
  }, 300_000);
});

describe('SQL lives in repositories', () => {
  // A query built anywhere else: the knex instance or a transaction called as a table, an Objection model's
  // query, or raw SQL (a string given to .raw(; sharp's .raw() of pixels is not SQL). Services and job handlers
  // hold rules and steps; core/src/repositories holds the SQL.
  const SQL = [/\bdb\(\)\(/, /\btrx\(/, /\b(k|knex)\(\s*[`'"]/, /\.query\(/, /\.raw\(\s*[`'"]/];
  // (api/src/cli sets up and creates databases before any repository can run.)
  const RULED = ['core/src/services', 'core/src/adsk', 'core/src/paypal', 'workers/src', 'api/src/http', 'api/src/routes'];

  it('no service or job handler builds a query', () => {
    const offenders = RULED.flatMap((dir) => sourceFiles(path.join(repo, dir)))
      .filter((f) => !/\.test\.tsx?$/.test(f))
      .flatMap((f) =>
        fs
          .readFileSync(f, 'utf8')
          .split('\n')
          .flatMap((line, i) => (SQL.some((re) => re.test(line)) ? [`${path.relative(repo, f)}:${i + 1}: ${line.trim()}`] : [])),
      );
    expect(offenders).toEqual([]);
  });
});
