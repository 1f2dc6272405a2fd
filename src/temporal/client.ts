// A lazily connected Temporal client shared by the API process.
import { Client, Connection } from '@temporalio/client';

export interface TemporalProvider {
  client(): Promise<Client>;
  /** True when the frontend answers a health check within the timeout. */
  healthy(timeoutMs?: number): Promise<boolean>;
  close(): Promise<void>;
  readonly address: string;
  readonly namespace: string;
  readonly taskQueue: string;
}

export function createTemporalProvider(opts: { address: string; namespace: string; taskQueue: string }): TemporalProvider {
  let connecting: Promise<Connection> | undefined;
  let clientPromise: Promise<Client> | undefined;
  const connection = (): Promise<Connection> => {
    connecting ??= Connection.connect({ address: opts.address }).catch((err: unknown) => {
      connecting = undefined; // retry on next use
      throw err;
    });
    return connecting;
  };
  return {
    address: opts.address,
    namespace: opts.namespace,
    taskQueue: opts.taskQueue,
    client() {
      clientPromise ??= connection()
        .then((c) => new Client({ connection: c, namespace: opts.namespace }))
        .catch((err: unknown) => {
          clientPromise = undefined;
          throw err;
        });
      return clientPromise;
    },
    async healthy(timeoutMs = 2000) {
      try {
        const conn = await withTimeout(connection(), timeoutMs);
        const res = await withTimeout(conn.healthService.check({}), timeoutMs);
        return res.status === 1; // SERVING
      } catch {
        return false;
      }
    },
    async close() {
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
