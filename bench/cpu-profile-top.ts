/**
 * Where a V8 CPU profile (node --cpu-prof) spent its time, as text: self time
 * by function and by package (node_modules/<name>, node: internals, the
 * program's own code, garbage collection), largest first. Given a sampling
 * heap profile instead (`.heapprofile`, e.g. API_BENCH_ALLOC_PROF of
 * bench/api-bench.ts, which counts what minor and major collections took
 * too), the bytes allocated, the same ways.
 *
 *   npx tsx bench/cpu-profile-top.ts <file.cpuprofile|file.heapprofile> [rows=30]
 */
import fs from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** The package a script belongs to: `pg`, `@koa/router`, `node:internal`, `(own code)`, or a V8 pseudo-frame. */
export function packageOf(url: string, functionName: string): string {
  if (!url) return `(${functionName || 'native'})`.replace(/^\(\((.*)\)\)$/, '($1)');
  if (url.startsWith('node:')) return 'node: internals';
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  return m ? m[1] : '(own code)';
}

const [file, rowsArg] = process.argv.slice(2);
if (!file) {
  console.error('usage: npx tsx bench/cpu-profile-top.ts <file.cpuprofile> [rows]');
  process.exit(2);
}
const rows = Number(rowsArg ?? 30);
const where = (url: string, lineNumber: number) => (url ? `${url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*?\/(api|core|workers|proto)\//, '$1/')}:${lineNumber + 1}` : '');
const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile | { head: HeapNode };
if ('head' in parsed) heapTop(parsed.head);
else cpuTop(parsed);

/** Self time by function and by package, from a CPU profile's samples. */
function cpuTop(profile: Profile): void {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const total = [...selfUs.values()].reduce((a, b) => a + b, 0);
  const idle = [...selfUs].filter(([id]) => byId.get(id)!.callFrame.functionName === '(idle)').reduce((a, [, us]) => a + us, 0);
  const busy = total - idle;

  const fns = new Map<string, number>();
  const pkgs = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    if (functionName === '(idle)') continue;
    const pkg = packageOf(url, functionName);
    const key = `${functionName || '(anonymous)'} ${where(url, lineNumber)}`.trim();
    fns.set(key, (fns.get(key) ?? 0) + us);
    pkgs.set(pkg, (pkgs.get(pkg) ?? 0) + us);
  }
  const pct = (us: number) => `${((100 * us) / busy).toFixed(1)} %`;
  const top = (m: Map<string, number>, n: number) =>
    [...m].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, us]) => `| ${pct(us)} | ${(us / 1000).toFixed(0)} ms | ${k.replace(/\|/g, '\\|')} |`).join('\n');
  console.log(`Busy ${(busy / 1e6).toFixed(2)} s of ${(total / 1e6).toFixed(2)} s profiled (self time; shares of busy time).\n`);
  console.log(`| share | self | package |\n| ---: | ---: | --- |\n${top(pkgs, rows)}\n`);
  console.log(`| share | self | function |\n| ---: | ---: | --- |\n${top(fns, rows)}`);
}

interface HeapNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children?: HeapNode[];
}

/** Bytes allocated by function and by package, from a sampling heap profile's tree. */
function heapTop(head: HeapNode): void {
  const fns = new Map<string, number>();
  const pkgs = new Map<string, number>();
  let total = 0;
  const visit = (n: HeapNode) => {
    if (n.selfSize) {
      const { functionName, url, lineNumber } = n.callFrame;
      const key = `${functionName || '(anonymous)'} ${where(url, lineNumber)}`.trim();
      fns.set(key, (fns.get(key) ?? 0) + n.selfSize);
      const pkg = packageOf(url, functionName);
      pkgs.set(pkg, (pkgs.get(pkg) ?? 0) + n.selfSize);
      total += n.selfSize;
    }
    for (const c of n.children ?? []) visit(c);
  };
  visit(head);
  const top = (m: Map<string, number>) =>
    [...m].sort((a, b) => b[1] - a[1]).slice(0, rows).map(([k, b]) => `| ${((100 * b) / total).toFixed(1)} % | ${(b / 1e6).toFixed(0)} MB | ${k.replace(/\|/g, '\\|')} |`).join('\n');
  console.log(`${(total / 1e6).toFixed(0)} MB allocated (sampled).\n`);
  console.log(`| share | bytes | package |\n| ---: | ---: | --- |\n${top(pkgs)}\n`);
  console.log(`| share | bytes | function |\n| ---: | ---: | --- |\n${top(fns)}`);
}
