import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Run in a fresh Node process (a test worker may have loaded modules before):
 * keeps references to built-ins, builds the app, checks a PDF and a damaged
 * one, and says which built-ins are no longer the ones Node started with.
 * (Identity, not toString: core-js makes its replacements print "[native code]".)
 */
const SCRIPT = `
const watched = { 'JSON.stringify': JSON.stringify, 'JSON.parse': JSON.parse, 'Array.prototype.push': Array.prototype.push };
const now = { 'JSON.stringify': () => JSON.stringify, 'JSON.parse': () => JSON.parse, 'Array.prototype.push': () => Array.prototype.push };
const changed = (when) => Object.keys(watched).filter((k) => now[k]() !== watched[k]).map((k) => when + ': ' + k);
const fs = await import('node:fs');
const os = await import('node:os');
const path = await import('node:path');
const { createApp } = await import('./api/src/app.ts');
createApp({ serveClient: false });
const found = changed('after building the app');
const { checkPdfOpens } = await import('./core/src/uploaded-file.ts');
const { planPdf, PAPER } = await import('./workers/test/pdf-fixtures.ts');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'builtins-'));
fs.writeFileSync(path.join(dir, 'plan.pdf'), await planPdf([{ size: PAPER.A4 }]));
fs.writeFileSync(path.join(dir, 'bad.pdf'), '%PDF-1.7\\nnot a pdf\\n%%EOF\\n');
await checkPdfOpens(path.join(dir, 'plan.pdf'));
const refused = await checkPdfOpens(path.join(dir, 'bad.pdf')).then(() => 'accepted', (e) => e.message);
fs.rmSync(dir, { recursive: true, force: true });
found.push(...changed('after checking PDFs'));
process.stdout.write(JSON.stringify({ changed: found, refused }) + '\\n');
process.exit(0);
`;

/**
 * pdf.js's legacy build replaces JSON.stringify, JSON.parse and
 * Array.prototype.push with slow polyfills; in the API process every answer,
 * log line and query result went through them. Building the app and checking
 * PDF uploads must leave Node's built-ins as they are.
 */
describe('built-ins of the API process', () => {
  it('stay the native JSON and Array.prototype.push after the app is built and PDFs were checked', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', SCRIPT], {
      cwd: ROOT,
      env: process.env,
      timeout: 110_000,
    });
    const result = JSON.parse(stdout.trim().split('\n').pop()!) as { changed: string[]; refused: string };
    expect(result.refused).toMatch(/cannot be read as one/);
    expect(result.changed).toEqual([]);
    // A fresh Node process loading the whole app with tsx: slow on a busy machine.
  }, 120_000);
});
