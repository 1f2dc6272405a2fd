// A lazily connected Temporal client shared by the API process, which knows when Temporal is down.
//
// Fast failure (docs/operations.md "When Temporal is down"): the SDK's default gRPC retries add
// up to about 20 s per call, which a request would wait out before its 503. Here a call is retried
// at most twice (about 0.5 s), and an UNAVAILABLE answer, a failed connect or a failed health
// check marks Temporal down: from then on client() rejects at once (callers answer 503 with
// Retry-After, or leave a start to the reconciler) while a probe asks the health service every
// PROBE_INTERVAL_MS; the first SERVING answer marks it up again.
//
// A server that hangs (accepts connections, answers nothing: overloaded, stopped mid-way, a
// black-holing network) sends no UNAVAILABLE. Every call therefore carries a deadline
// (TEMPORAL_CALL_TIMEOUT_MS, default 10 s) unless its caller set its own: the call fails with
// DEADLINE_EXCEEDED (callers answer 503) and a health check with a short timeout decides whether
// Temporal is marked down, so the next calls are refused at once rather than each waiting. The
// deadline also bounds a workflow update's wait for its outcome (the server does not answer a
// poll early): a command whose workflow does not complete it in time is answered 503 and is safe
// to retry with its Idempotency-Key (docs/idempotency.md); before, such a request waited without
// bound.
import { Client, Connection, defaultGrpcRetryOptions, isRetryableError, makeGrpcRetryInterceptor } from '@temporalio/client';
import { InterceptingCall, type Interceptor } from '@grpc/grpc-js';

export interface TemporalProvider {
  client(): Promise<Client>;
  /** True when the frontend answers a health check within the timeout. */
  healthy(timeoutMs?: number): Promise<boolean>;
  close(): Promise<void>;
  readonly address: string;
  readonly namespace: string;
  readonly taskQueue: string;
  /** Since when Temporal is known to be down (epoch ms), or null. */
  downSince(): number | null;
}

/** How often a provider that saw Temporal down probes its health service. */
export const PROBE_INTERVAL_MS = 500;
/** Attempts per call (the first and two retries, 100 ms and 170 ms apart). */
const CALL_ATTEMPTS = 3;
const CONNECT_TIMEOUT_MS = 2000;
/** Default deadline of one client call, retries included (TEMPORAL_CALL_TIMEOUT_MS). */
export const DEFAULT_CALL_TIMEOUT_MS = 10_000;
const GRPC_UNAVAILABLE = 14;
const GRPC_DEADLINE_EXCEEDED = 4;

export class TemporalDownError extends Error {
  constructor(since: number) {
    super(`Temporal has not answered since ${new Date(since).toISOString()}`);
    this.name = 'TemporalDownError';
  }
}

export interface TemporalProviderOptions {
  address: string;
  namespace: string;
  taskQueue: string;
  /** Deadline of a call that sets none itself (ms; default DEFAULT_CALL_TIMEOUT_MS). */
  callTimeoutMs?: number;
}

export function createTemporalProvider(opts: TemporalProviderOptions): TemporalProvider {
  const callTimeoutMs = opts.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
  let connecting: Promise<Connection> | undefined;
  let clientPromise: Promise<Client> | undefined;
  let downSince: number | null = null;
  let probe: NodeJS.Timeout | undefined;
  let closed = false;

  const markUp = () => {
    downSince = null;
    clearTimeout(probe);
    probe = undefined;
  };
  const markDown = () => {
    downSince ??= Date.now();
    if (!probe && !closed) {
      probe = setTimeout(() => {
        probe = undefined;
        void check(PROBE_INTERVAL_MS * 2).then((ok) => (ok ? markUp() : markDown()));
      }, PROBE_INTERVAL_MS);
      probe.unref();
    }
  };
  // A call that ran out of time: ask the health service (briefly) whether Temporal still answers.
  let verifying = false;
  const verify = () => {
    if (verifying || downSince !== null || closed) return;
    verifying = true;
    void check(PROBE_INTERVAL_MS * 2)
      .then((ok) => (ok ? undefined : markDown()))
      .finally(() => (verifying = false));
  };
  // Outermost interceptor: the deadline covers the call and its retries.
  const deadline: Interceptor = (options, nextCall) => new InterceptingCall(nextCall(options.deadline ? options : { ...options, deadline: Date.now() + callTimeoutMs }));
  const retry = defaultGrpcRetryOptions({ maxAttempts: CALL_ATTEMPTS });
  const connection = (): Promise<Connection> => {
    connecting ??= Connection.connect({
      address: opts.address,
      connectTimeout: CONNECT_TIMEOUT_MS,
      interceptors: [
        deadline,
        makeGrpcRetryInterceptor({
          delayFunction: retry.delayFunction,
          retryableDecider(attempt, status) {
            if (status.code === GRPC_UNAVAILABLE) markDown();
            if (status.code === GRPC_DEADLINE_EXCEEDED) verify();
            return downSince === null && attempt < CALL_ATTEMPTS && isRetryableError(status);
          },
        }),
      ],
    }).catch((err: unknown) => {
      connecting = undefined; // retry on next use
      markDown();
      throw err;
    });
    return connecting;
  };
  const check = async (timeoutMs: number): Promise<boolean> => {
    try {
      const conn = await withTimeout(connection(), timeoutMs);
      const res = await withTimeout(conn.healthService.check({}), timeoutMs);
      return res.status === 1; // SERVING
    } catch {
      return false;
    }
  };
  return {
    address: opts.address,
    namespace: opts.namespace,
    taskQueue: opts.taskQueue,
    downSince: () => downSince,
    client() {
      if (downSince !== null) return Promise.reject(new TemporalDownError(downSince));
      clientPromise ??= connection()
        .then((c) => new Client({ connection: c, namespace: opts.namespace }))
        .catch((err: unknown) => {
          clientPromise = undefined;
          throw err;
        });
      return clientPromise;
    },
    async healthy(timeoutMs = 2000) {
      const ok = await check(timeoutMs);
      if (ok) markUp();
      else markDown();
      return ok;
    },
    async close() {
      closed = true;
      markUp();
      const pending = connecting;
      connecting = undefined;
      clientPromise = undefined;
      if (!pending) return;
      // Do not wait out a connect attempt to an unreachable server: close it when it settles.
      const settled = await Promise.race([
        pending.then(
          (c) => c,
          () => null,
        ),
        new Promise<'pending'>((r) => setTimeout(() => r('pending'), 200)),
      ]);
      if (settled === 'pending') {
        pending
          .then(
            (c) => c.close(),
            () => undefined,
          )
          .catch(() => undefined);
      } else if (settled) {
        await settled.close();
      }
    },
  };
}

/**
 * Waits until the provider's Temporal answers a health check (a process that needs it at start:
 * the worker). Logs what it waits for every ~10 s; throws after limitMs.
 */
export async function untilTemporalAnswers(provider: TemporalProvider, limitMs: number, log: (line: string) => void): Promise<void> {
  const started = Date.now();
  let lastLog = started;
  while (!(await provider.healthy(3000))) {
    const waited = Date.now() - started;
    if (waited > limitMs) throw new Error(`Temporal at ${provider.address} did not answer within ${Math.round(limitMs / 1000)} s (TEMPORAL_START_TIMEOUT_SECONDS)`);
    if (Date.now() - lastLog >= 10_000) {
      lastLog = Date.now();
      log(`waiting for Temporal at ${provider.address} (${Math.round(waited / 1000)} s)`);
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
    p.then(
      (v) => {
        clearTimeout(t);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(t);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}
