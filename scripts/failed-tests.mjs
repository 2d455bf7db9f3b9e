// Names the failed tests of one suite's output, each with its first error line,
// in a few lines: CI keeps only the end of a `make test` run, and a suite's own
// report of what failed scrolls far above it.
// Usage: node scripts/failed-tests.mjs <suite output file>
import { readFileSync } from 'node:fs';

const MAX_LINES = 30;
const file = process.argv[2];
const text = readFileSync(file, 'utf8')
  .replace(/\u0000/g, '')
  // eslint-disable-next-line no-control-regex
  .replace(/\u001b\[[0-9;]*m/g, '');
const lines = text.split('\n');

const found = [];
for (let i = 0; i < lines.length; i += 1) {
  const line = lines[i].trim();
  const failedTest = /^FAIL\s+(.+)$/.exec(line);
  const typeError = /error TS\d+:/.test(line);
  const unhandled = /^⎯+ Unhandled (Errors?|Rejection)/.test(line);
  if (failedTest) {
    const error = lines.slice(i + 1, i + 12).map((l) => l.trim()).find((l) => /^[A-Za-z]*Error\b|^Error:|^expected |^Test timed out/.test(l));
    found.push(`FAIL ${failedTest[1]}${error ? `\n     ${error.slice(0, 300)}` : ''}`);
  } else if (typeError) {
    found.push(line.slice(0, 300));
  } else if (unhandled) {
    const error = lines.slice(i + 1, i + 8).map((l) => l.trim()).find((l) => l.length > 0 && !/^⎯/.test(l));
    found.push(`Unhandled error${error ? `: ${error.slice(0, 300)}` : ''}`);
  }
}

const unique = [...new Set(found)];
const shown = unique.slice(0, MAX_LINES);
console.log(`--- what failed in ${file.replace(/^.*\//, '')} ---`);
if (shown.length === 0) {
  // No test named: the suite stopped before reporting (a crash, a hang cut by a timeout).
  console.log(lines.filter((l) => l.trim()).slice(-12).join('\n'));
}
for (const entry of shown) console.log(entry);
if (unique.length > shown.length) console.log(`… and ${unique.length - shown.length} more`);
