import { isConnectionUnavailable } from '../src/db/pool-errors';
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { runLoad } from './load';
import { dropDatabase, ensureDatabase, migrate } from '../src/db/migrate';

export async function benchDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const base = new URL(process.env.BENCH_DATABASE_BASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres');
  base.pathname = `/billing_bench_${process.pid}_${randomBytes(3).toString('hex')}`;
  const url = base.toString();
  await ensureDatabase(url);
  await migrate(url);
  return { url, drop: () => dropDatabase(url) };
}

/**
 * Forks a server script; resolves with its port once it reports listening. With
 * BENCH_SERVER_CPU_PROFILE_DIR set, the server writes a V8 CPU profile there when it stops
 * (summarise it with `node dist/bench/cpu-profile.js FILE`).
 */
export function startServer(script: string, env: Record<string, string> = {}): Promise<{ port: number; child: ChildProcess; stop: () => Promise<void> }> {
  return new Promise((resolve, reject) => {
    const profileDir = process.env.BENCH_SERVER_CPU_PROFILE_DIR;
    const execArgv = profileDir ? [...process.execArgv, '--cpu-prof', `--cpu-prof-dir=${profileDir}`] : process.execArgv;
    const child = fork(script, [], { env: { ...process.env, ...env }, execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
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

/**
 * CPU time (user + system, ms) a process has used so far, from /proc/<pid>/stat (Linux), or null
 * when it cannot be read. With `tid`, only that thread's (/proc/<pid>/task/<tid>/stat; the main
 * thread's tid is the pid): the main thread is the one a Node process cannot spread over cores.
 */
export function procCpuMs(pid: number | undefined, tid?: number): number | null {
  if (pid === undefined) return null;
  try {
    const stat = readFileSync(tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`, 'utf8');
    // utime and stime are fields 14 and 15 of stat (11 and 12 after the command, which may hold spaces), in clock ticks (USER_HZ, 100).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return null;
  }
}

/** The machine's CPU since boot (ms, all cores): busy (user, nice, system, irq, softirq, steal) and idle (idle, iowait), from /proc/stat. */
export function machineCpuMs(): { busy: number; idle: number } | null {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
    const [user, nice, system, idle, iowait, irq, softirq, steal] = line.trim().split(/\s+/).slice(1, 9).map(Number) as number[];
    return { busy: ((user! + nice! + system! + irq! + softirq! + steal!) * 1000) / 100, idle: ((idle! + iowait!) * 1000) / 100 };
  } catch {
    return null;
  }
}

/**
 * CPU (ms) used so far by each process whose command name is `comm` (e.g. every PostgreSQL
 * backend), by pid, from /proc; commandCpuDelta sums what they used between two such readings.
 */
export function commandCpuMs(comm: string): Map<number, number> | null {
  try {
    const out = new Map<number, number>();
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() !== comm) continue;
        const ms = procCpuMs(Number(entry));
        if (ms !== null) out.set(Number(entry), ms);
      } catch {
        // The process ended while it was read.
      }
    }
    return out;
  } catch {
    return null;
  }
}

/**
 * CPU (ms) the processes of two commandCpuMs readings used between them: a process started in
 * between counts whole, one that ended in between is missing (its last share is not counted).
 */
export function commandCpuDelta(from: Map<number, number> | null, to: Map<number, number> | null): number | null {
  if (from === null || to === null) return null;
  let total = 0;
  for (const [pid, ms] of to) total += Math.max(0, ms - (from.get(pid) ?? 0));
  return total;
}

/**
 * The machine's speed in one figure, for benchmarks whose absolute rates do not compare between
 * machines: the bare Koa hello-world (bench/servers/hello.ts) driven by `concurrency` keep-alive
 * clients for `durationMs` after a 1 s warm-up, and the CPU its process spent per request (µs).
 * A service's CPU per request divided by this is in "hello-world units", which should not depend
 * on the machine's speed. Null when /proc cannot be read or no request was answered.
 */
export async function helloCalibration(opts: { durationMs?: number; concurrency?: number } = {}): Promise<{ cpuUsPerRequest: number | null; rps: number; requests: number }> {
  const concurrency = opts.concurrency ?? 32;
  const hello = await startServer(path.join(__dirname, 'servers', 'hello.js'));
  try {
    const url = `http://127.0.0.1:${hello.port}/`;
    await runLoad({ url, concurrency, durationMs: 1000 });
    const before = procCpuMs(hello.child.pid);
    const r = await runLoad({ url, concurrency, durationMs: opts.durationMs ?? 5000 });
    const after = procCpuMs(hello.child.pid);
    const ok = r.requests - r.errors;
    return { cpuUsPerRequest: before === null || after === null || ok <= 0 ? null : ((after - before) * 1000) / ok, rps: r.rps, requests: ok };
  } finally {
    await hello.stop();
  }
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
