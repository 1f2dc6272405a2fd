// The Temporal CLI dev server for development and tests: found on PATH or in the user cache,
// built once with `go install` when missing (the CLI is a Go module; later tags cannot be
// installed with go install, so the version is pinned).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { CUSTOM_SEARCH_ATTRIBUTES } from '../contracts/search-attributes';

export const TEMPORAL_CLI_VERSION = 'v1.5.1';

export function temporalCacheDir(): string {
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(base, 'billing-service', `temporal-${TEMPORAL_CLI_VERSION}`);
}

function onPath(): string | undefined {
  const r = spawnSync('sh', ['-c', 'command -v temporal'], { encoding: 'utf8' });
  const found = r.stdout.trim();
  if (r.status !== 0 || !found) return undefined;
  const v = spawnSync(found, ['--version'], { encoding: 'utf8' });
  // Only a CLI with a server inside will do (1.x prints "Server 1.xx").
  return /Server \d/.test(v.stdout) ? found : undefined;
}

/** Path of a usable `temporal` binary, building it into the cache if needed. */
export async function ensureTemporalCli(log: (line: string) => void): Promise<string> {
  if (process.env.TEMPORAL_CLI_PATH) return process.env.TEMPORAL_CLI_PATH;
  const cached = path.join(temporalCacheDir(), 'temporal');
  if (existsSync(cached)) return cached;
  const fromPath = onPath();
  if (fromPath) return fromPath;
  const go = spawnSync('sh', ['-c', 'command -v go || ls /usr/local/go/bin/go'], { encoding: 'utf8' }).stdout.trim().split('\n')[0];
  if (!go) {
    throw new Error('The Temporal CLI is not installed and Go is not available to build it. Install Go, or set TEMPORAL_ADDRESS to a running Temporal server.');
  }
  mkdirSync(temporalCacheDir(), { recursive: true });
  log(`building the Temporal CLI ${TEMPORAL_CLI_VERSION} into ${temporalCacheDir()} (one time; takes a few minutes)`);
  const started = Date.now();
  await new Promise<void>((resolve, reject) => {
    const child = spawn(go, ['install', `github.com/temporalio/cli/cmd/temporal@${TEMPORAL_CLI_VERSION}`], {
      env: { ...process.env, GOBIN: temporalCacheDir(), GOFLAGS: '-mod=mod' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let lastLine = '';
    child.stderr.on('data', (d: Buffer) => {
      lastLine = d.toString().trim().split('\n').pop() ?? lastLine;
    });
    const ticker = setInterval(() => log(`  still building the Temporal CLI (${Math.round((Date.now() - started) / 1000)} s) ${lastLine.slice(0, 100)}`), 15_000);
    child.on('exit', (code) => {
      clearInterval(ticker);
      if (code === 0) resolve();
      else reject(new Error(`go install of the Temporal CLI failed (exit ${code}): ${lastLine}`));
    });
  });
  log(`built the Temporal CLI in ${Math.round((Date.now() - started) / 1000)} s`);
  return cached;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

export interface DevServer {
  address: string;
  uiUrl: string | null;
  stop(): Promise<void>;
}

export interface DevServerOptions {
  cli: string;
  /** Frontend gRPC port; 0 picks a free one (again on each attempt). */
  port: number;
  uiPort?: number;
  dbFile?: string;
  log: (line: string) => void;
  namespace?: string;
}

const START_ATTEMPTS = 4;

/**
 * Starts the dev server. Ports are picked free and released before the server binds them, and the
 * server picks its own internal ports the same way, so two of them can collide ("address already
 * in use"): such a start is retried with fresh ports (the dev server exits at once when it happens).
 */
export async function startDevServer(opts: DevServerOptions): Promise<DevServer> {
  for (let attempt = 1; ; attempt++) {
    const port = opts.port === 0 ? await freePort() : opts.port;
    try {
      return await startDevServerOnce(opts, port);
    } catch (err) {
      const message = (err as Error).message;
      if (attempt >= START_ATTEMPTS || !/address already in use/i.test(message)) throw err;
      opts.log(`temporal dev server: a port was taken while it started; retrying with fresh ports (attempt ${attempt + 1} of ${START_ATTEMPTS})`);
    }
  }
}

async function startDevServerOnce(opts: DevServerOptions, port: number): Promise<DevServer> {
  const args = ['server', 'start-dev', '--ip', '127.0.0.1', '--port', String(port), '--log-level', 'error'];
  args.push('--http-port', String(await freePort()), '--metrics-port', String(await freePort()));
  if (opts.uiPort) args.push('--ui-port', String(opts.uiPort), '--ui-ip', '127.0.0.1');
  else args.push('--headless');
  if (opts.dbFile) {
    mkdirSync(path.dirname(opts.dbFile), { recursive: true });
    args.push('--db-filename', opts.dbFile);
  }
  if (opts.namespace && opts.namespace !== 'default') args.push('--namespace', opts.namespace);
  for (const sa of CUSTOM_SEARCH_ATTRIBUTES) args.push('--search-attribute', `${sa.name}=Keyword`);
  const child: ChildProcess = spawn(opts.cli, args, { stdio: ['ignore', 'ignore', 'pipe'], detached: false });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-4000);
  });
  const address = `127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`temporal dev server exited (${child.exitCode}): ${stderr}`);
    try {
      const conn = await Connection.connect({ address, connectTimeout: 1000 });
      try {
        const res = await conn.healthService.check({});
        if (res.status === 1) {
          await conn.workflowService.describeNamespace({ namespace: opts.namespace ?? 'default' });
          break;
        }
      } finally {
        await conn.close();
      }
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`temporal dev server did not become ready within 60 s: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    address,
    uiUrl: opts.uiPort ? `http://127.0.0.1:${opts.uiPort}` : null,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 5000).unref();
      }),
  };
}
