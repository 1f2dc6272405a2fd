import { isConnectionUnavailable } from '../src/db/pool-errors';
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { dropDatabase, ensureDatabase, migrate } from '../src/db/migrate';

export async function benchDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const base = new URL(process.env.BENCH_DATABASE_BASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres');
  base.pathname = `/billing_bench_${process.pid}_${randomBytes(3).toString('hex')}`;
  const url = base.toString();
  await ensureDatabase(url);
  await migrate(url);
  return { url, drop: () => dropDatabase(url) };
}

/** Forks a server script; resolves with its port once it reports listening. */
export function startServer(script: string, env: Record<string, string> = {}): Promise<{ port: number; child: ChildProcess; stop: () => Promise<void> }> {
  return new Promise((resolve, reject) => {
    const child = fork(script, [], { env: { ...process.env, ...env }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`${script} exited early (${code})`)));
    child.once('message', (m: { port: number }) => {
      child.removeAllListeners('exit');
      resolve({
        port: m.port,
        child,
        stop: () =>
          new Promise<void>((r) => {
            child.once('exit', () => r());
            child.kill('SIGTERM');
            setTimeout(() => child.kill('SIGKILL'), 5000).unref();
          }),
      });
    });
  });
}

export function fmt(n: number, digits = 0): string {
  return n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
}

/** One sample of a Prometheus text endpoint: metric name, labels, value. */
export interface PrometheusSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples a Prometheus endpoint serves now, or null when it does not answer. */
export async function scrapePrometheus(url: string): Promise<PrometheusSample[] | null> {
  try {
    const text = await (await fetch(url)).text();
    const out: PrometheusSample[] = [];
    for (const line of text.split('\n')) {
      const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{([^}]*)\})? (\S+)/.exec(line);
      if (!m) continue;
      const labels: Record<string, string> = {};
      for (const l of (m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]!] = l[2]!;
      out.push({ name: m[1]!, labels, value: Number(m[3]) });
    }
    return out;
  } catch {
    return null;
  }
}

/**
 * Runs `work`, and when it failed for want of a database connection (P2028 and its relatives,
 * src/db/pool-errors.ts) waits and runs it again (up to `attempts` times, backing off): a
 * benchmark's setup on a busy machine paces itself instead of crashing. `work` must be safe to
 * run again after such a failure (nothing was written: the transaction never started).
 */
export async function paced<T>(work: () => Promise<T>, attempts = 8): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await work();
    } catch (err) {
      if (i >= attempts || !isConnectionUnavailable(err)) throw err;
      await new Promise((resolve) => setTimeout(resolve, Math.min(5_000, 200 * 2 ** i)));
    }
  }
}
