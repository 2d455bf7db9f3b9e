// Names the failed tests of one suite's output, each with its first error line,
// in a few lines: CI keeps only the end of a `make test` run, and a suite's own
// report of what failed scrolls far above it.
// Usage: node scripts/failed-tests.mjs <suite output file>
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const MAX_LINES = 30;

/** The failed tests (each with its first error line), type errors and unhandled errors a vitest or tsc output names. */
export function failedTests(output) {
  const text = output
    .replace(/\u0000/g, '')
    // eslint-disable-next-line no-control-regex
    .replace(/\u001b\[[0-9;]*m/g, '');
  const lines = text.split('\n');
  const found = [];
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i].trim();
    const failedTest = /^FAIL\s+(.+)$/.exec(line);
    const unhandled = /^⎯+ Unhandled (Errors?|Rejection)/.test(line);
    if (failedTest) {
      const error = lines.slice(i + 1, i + 12).map((l) => l.trim()).find((l) => /^[A-Za-z]*Error\b|^Error:|^expected |^Test timed out/.test(l));
      found.push(`FAIL ${failedTest[1]}${error ? `\n     ${error.slice(0, 300)}` : ''}`);
    } else if (/error TS\d+:/.test(line)) {
      found.push(line.slice(0, 300));
    } else if (unhandled) {
      const error = lines.slice(i + 1, i + 8).map((l) => l.trim()).find((l) => l.length > 0 && !/^⎯/.test(l));
      found.push(`Unhandled error${error ? `: ${error.slice(0, 300)}` : ''}`);
    }
  }
  return { found: [...new Set(found)], lastLines: lines.filter((l) => l.trim()).slice(-12) };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const file = process.argv[2];
  const { found, lastLines } = failedTests(readFileSync(file, 'utf8'));
  console.log(`--- what failed in ${file.replace(/^.*\//, '')} ---`);
  // No test named: the suite stopped before reporting (a crash, a hang cut by a timeout).
  if (found.length === 0) console.log(lastLines.join('\n'));
  for (const entry of found.slice(0, MAX_LINES)) console.log(entry);
  if (found.length > MAX_LINES) console.log(`… and ${found.length - MAX_LINES} more`);
}
