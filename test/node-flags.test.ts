import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import nodeFlags from '../scripts/node-flags.json' with { type: 'json' };

/**
 * The API and workers run with the same V8 flags whichever way they are
 * started: make start reads scripts/node-flags.json, docker compose cannot
 * and spells them out — a flag changed in one place only would leave the
 * containers with another garbage collector's behaviour than the benchmarks
 * measured.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

test('docker compose starts the API and the workers with the V8 flags make start uses', () => {
  const compose = fs.readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8');
  const command = (entry: string) => JSON.stringify(['node', ...nodeFlags[entry as 'api' | 'workers'], `dist/server/${entry === 'api' ? 'server' : 'workers'}.js`]).replaceAll(',', ', ');
  expect(compose).toContain(`command: ${command('api')}`);
  expect(compose).toContain(`command: ${command('workers')}`);
  expect(fs.readFileSync(path.join(ROOT, 'scripts/start.sh'), 'utf8')).toContain('scripts/node-flags.json');
});
