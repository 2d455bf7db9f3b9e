import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface Child {
  proc: ChildProcess;
  /** Everything the process printed so far (stdout and stderr). */
  output(): string;
  /** Resolves with the first stdout line matching `re`. */
  line(re: RegExp): Promise<RegExpExecArray>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Runs a TypeScript file of the repository in its own Node process (tsx), with this process's environment plus `env`. */
export function runTs(file: string, env: Record<string, string> = {}): Child {
  const proc = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, file)], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const waiters: { re: RegExp; resolve: (m: RegExpExecArray) => void }[] = [];
  const check = () => {
    for (const w of [...waiters]) {
      const m = w.re.exec(out);
      if (m) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(m);
      }
    }
  };
  proc.stdout!.on('data', (c: Buffer) => {
    out += c.toString();
    check();
  });
  proc.stderr!.on('data', (c: Buffer) => {
    out += c.toString();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return {
    proc,
    output: () => out,
    line: (re) =>
      new Promise<RegExpExecArray>((resolve, reject) => {
        waiters.push({ re, resolve });
        check();
        void exited.then(({ code, signal }) => reject(new Error(`${file} exited (${code ?? signal}) before printing ${re}:\n${out}`)));
      }),
    exited,
  };
}
