import { describe, expect, it } from 'vitest';
// @ts-expect-error a plain .mjs script of make test, without types
import { failedTests } from '../scripts/failed-tests.mjs';

const colour = (s: string) => `\u001b[41m\u001b[1m${s}\u001b[22m\u001b[49m`;

describe('the failure summary at the end of make test', () => {
  it('names each failed test with its first error line, however vitest coloured it', () => {
    const output = [
      ' ✓  api  api/test/ok.test.ts (3 tests) 20ms',
      '⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯',
      '',
      ` ${colour(' FAIL ')}  client  client/src/x.test.ts > the bell > counts right`,
      "TypeError: Cannot read properties of undefined (reading 'unread')",
      ' ❯ client/src/x.test.ts:91:17',
    ].join('\n');
    expect(failedTests(output).found).toEqual(["FAIL client  client/src/x.test.ts > the bell > counts right\n     TypeError: Cannot read properties of undefined (reading 'unread')"]);
  });

  it('names type errors and unhandled errors, and keeps the last lines when nothing is named (a crash)', () => {
    const output = "core/src/a.ts(3,5): error TS2322: Type 'string' is not assignable to type 'number'.\n⎯⎯⎯ Unhandled Rejection ⎯⎯⎯\nError: connect ECONNREFUSED 127.0.0.1:5432\n";
    expect(failedTests(output).found).toEqual([
      "core/src/a.ts(3,5): error TS2322: Type 'string' is not assignable to type 'number'.",
      'Unhandled error: Error: connect ECONNREFUSED 127.0.0.1:5432',
    ]);
    const crash = failedTests('starting\nSegmentation fault\n');
    expect(crash.found).toEqual([]);
    expect(crash.lastLines).toEqual(['starting', 'Segmentation fault']);
  });
});
