import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const RESULTS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), 'RESULTS.md');

/** When a run was made, as the results headings give it: `2026-11-22 06:50 UTC`. */
export const runDate = () => `${new Date().toISOString().replace('T', ' ').slice(0, 16)} UTC`;

/**
 * Adds a bench's section to bench/RESULTS.md after a blank line. In one
 * append, never read-modify-write: benches run together record into the same file.
 */
export function appendResults(section: string): void {
  if (!fs.existsSync(RESULTS)) fs.writeFileSync(RESULTS, '# Benchmark results\n');
  fs.appendFileSync(RESULTS, `\n${section.replace(/\n*$/, '\n')}`);
  console.log(`\nAppended to ${path.relative(process.cwd(), RESULTS)}.`);
}
