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
