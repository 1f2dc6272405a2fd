// The Temporal CLI dev server for development and tests: found on PATH or in the user cache,
// built once with `go install` when missing (the CLI is a Go module; later tags cannot be
// installed with go install, so the version is pinned).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { connect, createServer } from 'node:net';
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
  log(
    `building the Temporal CLI ${TEMPORAL_CLI_VERSION} into ${temporalCacheDir()} (one time; a few minutes, longer on a busy machine). ` +
      'To skip it: put a Temporal CLI 1.x on PATH (or TEMPORAL_CLI_PATH), or set TEMPORAL_ADDRESS to a running server.',
  );
  const started = Date.now();
  const progress = new BuildProgress();
  await new Promise<void>((resolve, reject) => {
    // -v names each package as it is compiled: the phase and a count that moves, not a stale line.
    const child = spawn(go, ['install', '-v', `github.com/temporalio/cli/cmd/temporal@${TEMPORAL_CLI_VERSION}`], {
      env: { ...process.env, GOBIN: temporalCacheDir(), GOFLAGS: '-mod=mod' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let partial = '';
    child.stderr.on('data', (d: Buffer) => {
      const lines = (partial + d.toString()).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) progress.line(line);
    });
    const ticker = setInterval(() => log(`  building the Temporal CLI: ${progress.describe(Date.now() - started)}`), BUILD_PROGRESS_INTERVAL_MS);
    child.on('exit', (code) => {
      clearInterval(ticker);
      if (code === 0) resolve();
      else reject(new Error(`go install of the Temporal CLI failed (exit ${code}): ${progress.lastLines()}`));
    });
  });
  log(`built the Temporal CLI in ${Math.round((Date.now() - started) / 1000)} s (${progress.describe(Date.now() - started)})`);
  return cached;
}

const BUILD_PROGRESS_INTERVAL_MS = 15_000;

/**
 * Progress of `go install -v`: `go: downloading <module>` lines while modules are fetched, then
 * one line per compiled package. describe() says which phase, how many so far, the elapsed time
 * and how long ago the last line came (a build that prints nothing for a while is still linking).
 */
export class BuildProgress {
  private downloaded = 0;
  private compiled = 0;
  private last = '';
  private lastAt = Date.now();
  private readonly tail: string[] = [];

  line(raw: string): void {
    const line = raw.trim();
    if (!line) return;
    this.lastAt = Date.now();
    this.tail.push(line);
    this.tail.splice(0, Math.max(0, this.tail.length - 5));
    if (line.startsWith('go: downloading ')) {
      this.downloaded += 1;
      this.last = line.slice('go: downloading '.length);
    } else if (!line.startsWith('go:') && !line.includes(' ')) {
      this.compiled += 1;
      this.last = line;
    }
  }

  describe(elapsedMs: number, now = Date.now()): string {
    const elapsed = `${Math.round(elapsedMs / 1000)} s`;
    const quiet = Math.round((now - this.lastAt) / 1000);
    const phase =
      this.compiled > 0
        ? `compiling: ${this.compiled} package(s) so far (latest ${this.last})`
        : this.downloaded > 0
          ? `downloading modules: ${this.downloaded} so far (latest ${this.last})`
          : 'resolving the module';
    return `${phase}; ${elapsed} elapsed${quiet >= 10 ? `, no output for ${quiet} s (compiling or linking a large package)` : ''}`;
  }

  lastLines(): string {
    return this.tail.join(' | ');
  }
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
  /** The server's Prometheus endpoint (its cache and persistence counters, among others). */
  metricsUrl: string;
  /** The server's process id (tests suspend it with SIGSTOP to make it hang). */
  pid: number | undefined;
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
  /** How long to wait for the server to answer (default: TEMPORAL_START_TIMEOUT_SECONDS, else 120 s). */
  readyTimeoutMs?: number;
  /** Dynamic config values (`--dynamic-config-value key=value`; values are JSON). */
  dynamicConfig?: Record<string, string | number | boolean>;
}

const START_ATTEMPTS = 4;
const DEFAULT_READY_TIMEOUT_S = 120;
/** Lines of the server's own output kept for the error of a start that fails. */
const OUTPUT_LINES_KEPT = 30;

export function readyTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  const s = Number(env.TEMPORAL_START_TIMEOUT_SECONDS);
  return (Number.isFinite(s) && s > 0 ? s : DEFAULT_READY_TIMEOUT_S) * 1000;
}

/**
 * SQLite settings for the dev server's state file: the write-ahead log and NORMAL sync make the
 * first start's schema creation a handful of fsyncs instead of ~800 (each a full disk flush, slow
 * on a busy or freshly written disk); a crash can lose the last transactions of a dev server, never
 * corrupt the file.
 */
export const SQLITE_PRAGMAS = ['journal_mode=wal', 'synchronous=normal'];

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

/** Whether something accepts TCP connections on host:port (cheap; no gRPC state left behind). */
function acceptsTcp(host: string, port: number, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/**
 * One readiness probe of a Temporal frontend: the port accepts TCP, the gRPC health check says
 * SERVING and the namespace exists. Each probe opens its own gRPC channel with a subchannel pool
 * of its own and closes it: with grpc-js's process-wide pool, channels to one address share a
 * subchannel whose reconnect backoff grows with every failed attempt (1 s, 1.6 s, … up to 2 min)
 * and survives closing the channel, so a server that came up after ~40 s of refused connections
 * was seen only ~20 s later, past the old 60 s limit. Returns null when ready, else why not.
 */
export async function probeTemporal(address: string, namespace: string, timeoutMs = 3000): Promise<string | null> {
  const [host, portText] = [address.slice(0, address.lastIndexOf(':')), address.slice(address.lastIndexOf(':') + 1)];
  if (!(await acceptsTcp(host, Number(portText), timeoutMs))) return `nothing accepts connections on ${address}`;
  let conn: Connection | undefined;
  try {
    conn = await Connection.connect({ address, connectTimeout: timeoutMs, channelArgs: { 'grpc.use_local_subchannel_pool': 1 } });
    const c = conn;
    const deadline = Date.now() + timeoutMs;
    const health = await c.withDeadline(deadline, () => c.healthService.check({}));
    if (health.status !== 1) return `health check says ${health.status} (not SERVING)`;
    await c.withDeadline(deadline, () => c.workflowService.describeNamespace({ namespace }));
    return null;
  } catch (err) {
    return ((err as Error).message || String(err)).split('\n')[0];
  } finally {
    await conn?.close().catch(() => undefined);
  }
}

async function startDevServerOnce(opts: DevServerOptions, port: number): Promise<DevServer> {
  const args = ['server', 'start-dev', '--ip', '127.0.0.1', '--port', String(port), '--log-level', 'warn'];
  const metricsPort = await freePort();
  args.push('--http-port', String(await freePort()), '--metrics-port', String(metricsPort));
  for (const [key, value] of Object.entries(opts.dynamicConfig ?? {})) args.push('--dynamic-config-value', `${key}=${JSON.stringify(value)}`);
  if (opts.uiPort) args.push('--ui-port', String(opts.uiPort), '--ui-ip', '127.0.0.1');
  else args.push('--headless');
  if (opts.dbFile) {
    mkdirSync(path.dirname(opts.dbFile), { recursive: true });
    args.push('--db-filename', opts.dbFile);
    for (const pragma of SQLITE_PRAGMAS) args.push('--sqlite-pragma', pragma);
  }
  if (opts.namespace && opts.namespace !== 'default') args.push('--namespace', opts.namespace);
  for (const sa of CUSTOM_SEARCH_ATTRIBUTES) args.push('--search-attribute', `${sa.name}=Keyword`);
  const started = Date.now();
  const child: ChildProcess = spawn(opts.cli, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: false });
  // The server's own output (both streams), last lines only, for the error of a failed start.
  const output: string[] = [];
  const keep = (d: Buffer) => {
    for (const line of d.toString().split('\n')) if (line.trim()) output.push(line.trimEnd().slice(0, 500));
    output.splice(0, Math.max(0, output.length - OUTPUT_LINES_KEPT));
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let spawnError: Error | undefined;
  child.once('error', (err) => (spawnError = err));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const shown = () => (output.length ? `its last output lines:\n  ${output.join('\n  ')}` : 'it printed nothing');
  const address = `127.0.0.1:${port}`;
  const namespace = opts.namespace ?? 'default';
  const limitMs = opts.readyTimeoutMs ?? readyTimeoutMs();
  const deadline = started + limitMs;
  let lastProbe = 'not probed yet';
  for (;;) {
    if (spawnError) throw new Error(`temporal dev server could not be started (${opts.cli}): ${spawnError.message}`);
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`temporal dev server for ${address} exited (${child.exitCode ?? child.signalCode}) after ${secondsSince(started)} s; ${shown()}`);
    }
    const probe = await probeTemporal(address, namespace, Math.min(3000, Math.max(500, deadline - Date.now())));
    if (probe === null) break;
    lastProbe = probe;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(
        `temporal dev server did not become ready on ${address} within ${Math.round(limitMs / 1000)} s (waited ${secondsSince(started)} s; ` +
          `last probe: ${lastProbe}; state: ${opts.dbFile ?? 'in memory'}); ${shown()}\n` +
          'Set TEMPORAL_START_TIMEOUT_SECONDS to wait longer, or TEMPORAL_ADDRESS to use a running server.',
      );
    }
    await Promise.race([exited, new Promise((r) => setTimeout(r, 250))]);
  }
  opts.log(`temporal dev server ready on ${address} after ${secondsSince(started)} s`);
  return {
    address,
    uiUrl: opts.uiPort ? `http://127.0.0.1:${opts.uiPort}` : null,
    metricsUrl: `http://127.0.0.1:${metricsPort}/metrics`,
    pid: child.pid,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 5000).unref();
      }),
  };
}

function secondsSince(t: number): string {
  return ((Date.now() - t) / 1000).toFixed(1);
}
