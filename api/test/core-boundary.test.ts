import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const repo = path.resolve(import.meta.dirname, '../..');

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

describe('the shared core is a boundary', () => {
  it('the core imports nothing from the HTTP layer', () => {
    const offending = sourceFiles(path.join(repo, 'api/src/core')).flatMap((f) =>
      importsOf(f)
        .filter((i) => i.startsWith('api/src/') && !i.startsWith('api/src/core/'))
        .map((i) => `${path.relative(repo, f)} → ${i}`),
    );
    expect(offending).toEqual([]);
  });

  it('workers import only the core and proto of the other workspaces', () => {
    const offending = sourceFiles(path.join(repo, 'workers/src')).flatMap((f) =>
      importsOf(f)
        .filter((i) => (i.startsWith('@sitewalk/api') && !i.startsWith('@sitewalk/api/core/')) || (i.startsWith('api/') && !i.startsWith('api/src/core/')))
        .map((i) => `${path.relative(repo, f)} → ${i}`),
    );
    expect(offending).toEqual([]);
  });
});
