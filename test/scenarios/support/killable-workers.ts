// Worker processes (./worker-process.ts) that a scenario starts and SIGKILLs, on a task queue of
// its own served by an API instance of its own, so that only these processes run its workflows.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Config } from '../../../src/config';
import { createTemporalProvider } from '../../../src/temporal/client';
import type { TestEnv } from '../../support/env';
import { call, type ApiResponse, type TestMerchant } from '../../support/api';

export interface KillableWorkers {
  /** Starts a worker process on the task queue, with `extraEnv` added to its environment; resolves once it is ready. */
  start(env: TestEnv, taskQueue: string, extraEnv: NodeJS.ProcessEnv): Promise<ChildProcess>;
  /** SIGKILLs the worker and waits for it to exit. */
  kill(child: ChildProcess): Promise<void>;
  /** SIGKILLs every worker still running (for `after`). */
  killAll(): void;
}

export function killableWorkers(): KillableWorkers {
  const children: ChildProcess[] = [];
  return {
    start(env, taskQueue, extraEnv) {
      const child = spawn(process.execPath, [path.join(__dirname, 'worker-process.js')], {
        env: { ...process.env, DATABASE_URL: env.databaseUrl, TEMPORAL_ADDRESS: env.temporalAddress, TEMPORAL_TASK_QUEUE: taskQueue, ...extraEnv },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      children.push(child);
      let err = '';
      child.stderr!.on('data', (d) => (err += String(d)));
      return new Promise((resolve, reject) => {
        child.stdout!.on('data', (d) => {
          if (String(d).includes('worker ready')) resolve(child);
        });
        child.on('exit', (code) => reject(new Error(`worker exited (${code}): ${err}`)));
      });
    },
    async kill(child) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await exited;
    },
    killAll() {
      for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    },
  };
}

/** An API instance on a new task queue named `${prefix}-<random>`, with `overrides` to its configuration. */
export async function appOnOwnQueue(env: TestEnv, prefix: string, overrides: Partial<Config> = {}): Promise<{ taskQueue: string; baseUrl: string }> {
  const taskQueue = `${prefix}-${randomBytes(4).toString('hex')}`;
  const temporal = createTemporalProvider({ address: env.temporalAddress, namespace: env.config.temporalNamespace, taskQueue });
  const baseUrl = await env.startApp({ taskQueue, ...overrides }, temporal);
  return { taskQueue, baseUrl };
}

/** Calls that API instance as the merchant, with a JSON body. */
export function callerAt(env: TestEnv, baseUrl: string, m: TestMerchant): (method: string, p: string, body?: unknown) => Promise<ApiResponse> {
  return (method, p, body) => call(env, method, p, { baseUrl, key: m.secretKey, merchant: m.id, body });
}
