// The service's own entry points (dist/boot/*.js) as child processes, for tests that stop,
// signal or count processes as an operator would. Killed at the end of the run if still alive.
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';

export interface ServiceProcess {
  child: ChildProcess;
  /** Everything the process wrote so far (stdout and stderr). */
  output(): string;
  /** Resolves with the match once the output matches; rejects when the process exits first or after timeoutMs. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
}

const started: ChildProcess[] = [];
process.once('exit', () => {
  for (const c of started) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

/** Repository root (this file runs from dist/test/support). */
export const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');

export function startServiceProcess(args: string[], env: NodeJS.ProcessEnv, opts: { cwd?: string; command?: string } = {}): ServiceProcess {
  const child = spawn(opts.command ?? process.execPath, args, { cwd: opts.cwd ?? REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(child);
  let out = '';
  const listeners = new Set<() => void>();
  const onData = (d: Buffer) => {
    out += String(d);
    for (const l of listeners) l();
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    output: () => out,
    exited,
    waitFor(pattern, timeoutMs = 60_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const m = out.match(pattern);
          if (m) return finish(() => resolve(m));
        };
        const timer = setTimeout(() => finish(() => reject(new Error(`no ${pattern} within ${timeoutMs} ms; output:\n${out.slice(-3000)}`))), timeoutMs);
        const finish = (f: () => void) => {
          clearTimeout(timer);
          listeners.delete(check);
          f();
        };
        listeners.add(check);
        void exited.then((code) => finish(() => reject(new Error(`exited (${code}) before ${pattern}; output:\n${out.slice(-3000)}`))));
        check();
      });
    },
  };
}

/** Stops a process with SIGTERM and waits (SIGKILL after timeoutMs). */
export async function stopProcess(p: ServiceProcess, timeoutMs = 30_000): Promise<number | null> {
  if (p.child.exitCode !== null || p.child.signalCode !== null) return p.child.exitCode;
  p.child.kill('SIGTERM');
  const timer = setTimeout(() => p.child.kill('SIGKILL'), timeoutMs);
  const code = await p.exited;
  clearTimeout(timer);
  return code;
}

/** A loopback port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}
