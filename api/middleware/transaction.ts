// Runs a write request in one database transaction and makes POSTs idempotent.
//
// With an Idempotency-Key, the (merchant, mode, key) row is inserted first, inside the same
// transaction as the request's own writes. A concurrent request with the same key blocks on
// that row's unique index until the first commits (then it replays the stored response) or
// rolls back (then it executes); waiting is bounded by lock_timeout, after which it gets 409
// idempotency_key_in_use. So a key never executes twice, and there is no "in progress" state
// that a crashed process could leave behind. Rules (docs/idempotency.md):
//  - the first response with status < 500 is stored and replayed for the retention period,
//    whatever the later request's body or path (dedup is on the key alone, as the contract says);
//  - a 5xx is not stored: the writes rolled back and the client may retry with the same key;
//  - rows older than the retention are ignored, taken over, and purged by the maintenance workflow;
//  - secrets a route shows once (ctx.state.redactOnReplay) are not stored: replays carry null;
//  - the response is stored as the exact JSON text sent (a `json` column keeps text verbatim)
//    and replayed as those bytes, so a replay is byte-identical to the first response.
import { ApiError, errors } from '../../src/errors';
import type { ScopedDb, ScopedTx } from '../../src/db/tenancy';
import type { AppContext, AppDeps, Middleware } from '../context';
import { connectionUnavailable, errorBody } from './errors';
import { CONNECTION_RETRY_AFTER_SECONDS, isConnectionUnavailable } from '../../src/db/pool-errors';

const MAX_KEY_LENGTH = 255;
/**
 * How long a claim of a key waits for a concurrent request with the same key. A claim (the
 * INSERT … ON CONFLICT in transactional() and stepwise()) reads its row from
 * `(SELECT set_config('lock_timeout', LOCK_WAIT, true))`: that sets lock_timeout for the rest of
 * the transaction (`true`: as SET LOCAL) before the INSERT can meet the other request's row, in
 * one round trip instead of two. `WHERE true` after it keeps PostgreSQL's grammar from reading
 * ON CONFLICT as a join's ON.
 */
const LOCK_WAIT = '10s';
const TX_TIMEOUT_MS = 30_000;
/** response_status of a step-wise claim released after a 5xx: the next request with the key runs. */
const RELEASED = -1;

interface Stored {
  responseStatus: number;
  /** The JSON text first sent, or null for an empty body. */
  responseText: string | null;
}

function isLockTimeout(err: unknown): boolean {
  const text = `${(err as Error)?.message ?? ''} ${JSON.stringify((err as { meta?: unknown })?.meta ?? '')}`;
  return /55P03|lock timeout|lock_not_available/i.test(text);
}

/** Prisma's interactive transaction expired (P2028) before the request finished. */
function isTransactionTimeout(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return e?.code === 'P2028' || /Transaction (already closed|API error).*(timeout|expired)|expired.*timeout/i.test(e?.message ?? '');
}

export interface TransactionalOptions {
  /**
   * The idempotency key of a request, from the checked Idempotency-Key header (default: the header
   * itself). The customer portal prefixes its session, so a portal request can never replay a
   * response stored for the merchant's own API calls (api/portal/router.ts).
   */
  idempotencyKey?: (ctx: AppContext, header: string) => string;
}

/** The request's idempotency key (checked), or '' without one. */
function requestKey(ctx: AppContext, opts: TransactionalOptions): string {
  const header = ctx.method === 'POST' ? ctx.get('Idempotency-Key') : '';
  if (header.length > MAX_KEY_LENGTH || /[^\x21-\x7e]/.test(header)) {
    throw errors.validationFailed(`Idempotency-Key must be 1 to ${MAX_KEY_LENGTH} visible ASCII characters`, 'Idempotency-Key');
  }
  return header && opts.idempotencyKey ? opts.idempotencyKey(ctx, header) : header;
}

/** Keys recorded before this instant are past the retention: a claim takes them over. */
function retentionCutoff(deps: AppDeps): Date {
  return new Date(Date.now() - deps.config.idempotencyRetentionHours * 3_600_000);
}

/** Answers with a stored response, as the first request sent it. */
function replay(ctx: AppContext, stored: Stored): void {
  ctx.status = stored.responseStatus;
  if (stored.responseText === null) ctx.body = '';
  else {
    ctx.body = stored.responseText;
    ctx.type = 'application/json';
    // A replayed error names the request that produced it; the header says the same.
    if (stored.responseStatus >= 400) {
      const original = /"request_id":"([A-Za-z0-9._:-]{8,128})"\}\}$/.exec(stored.responseText)?.[1];
      if (original) ctx.set('X-Request-Id', original);
    }
  }
  ctx.set('Idempotent-Replayed', 'true');
}

export function transactional(deps: AppDeps, opts: TransactionalOptions = {}): Middleware {
  return async (ctx, next) => {
    const tenant = ctx.state.tenant;
    const scoped = ctx.state.db as ScopedDb | undefined;
    if (!tenant || !scoped) throw new Error('transactional() must follow auth()');
    const key = requestKey(ctx, opts);
    const cutoff = retentionCutoff(deps);

    let replayed: Stored | undefined;
    try {
      await scoped.$transaction(
        async (tx: ScopedTx) => {
          if (key) {
            // One statement claims the key or finds it taken (then one more reads the stored
            // answer): a replay is rare, a first request is the common case.
            const claimed = await tx.$queryRaw<Array<{ claimed: number }>>`
              INSERT INTO idempotency_keys (merchant_id, mode, key, request_method, request_path, response_status, created_at)
              SELECT ${tenant.merchantId}, ${tenant.mode}::"Mode", ${key}, ${ctx.method}, ${ctx.path}, 0, now()
                FROM (SELECT set_config('lock_timeout', ${LOCK_WAIT}, true)) AS bounded WHERE true
              ON CONFLICT (merchant_id, mode, key) DO UPDATE
                SET request_method = EXCLUDED.request_method, request_path = EXCLUDED.request_path,
                    response_status = 0, response_body = NULL, created_at = now()
                WHERE idempotency_keys.created_at < ${cutoff} OR idempotency_keys.response_status = ${RELEASED}
              RETURNING 1 AS claimed`;
            if (claimed.length === 0) {
              const stored = await readStored(tx, tenant, key);
              if (!stored || stored.responseStatus === 0) throw errors.idempotencyKeyInUse('A request with this Idempotency-Key is in progress.', 'Idempotency-Key');
              replayed = stored;
              return;
            }
          }
          ctx.state.db = tx;
          await next();
          if (key) {
            const body = storableBody(ctx);
            // The same serialization Koa applies to an object body, so the stored text is the sent text.
            const text = body === undefined || body === null || body === '' ? null : JSON.stringify(body);
            await tx.$executeRaw`
              UPDATE idempotency_keys SET response_status = ${ctx.status}, response_body = ${text}::json
              WHERE merchant_id = ${tenant.merchantId} AND mode = ${tenant.mode}::"Mode" AND key = ${key}`;
          }
        },
        { timeout: TX_TIMEOUT_MS, maxWait: deps.config.transactionMaxWaitMs },
      );
    } catch (err) {
      if (isConnectionUnavailable(err)) throw connectionUnavailable();
      if (isTransactionTimeout(err)) {
        // Everything was rolled back and nothing was stored for the key: a retry with the same
        // Idempotency-Key is safe (outside calls such as charges deduplicate on our ids).
        throw errors.serviceUnavailable(`The request took longer than ${TX_TIMEOUT_MS / 1000} s and was rolled back; retry it with the same Idempotency-Key.`, undefined, {
          'Retry-After': String(CONNECTION_RETRY_AFTER_SECONDS),
        });
      }
      if (isLockTimeout(err)) {
        throw errors.idempotencyKeyInUse('Another request with this Idempotency-Key is still in progress; retry later.', 'Idempotency-Key');
      }
      if (key && err instanceof ApiError && err.status < 500 && err.code !== 'idempotency_key_in_use') {
        await storeErrorResponse(scoped, ctx, key, err);
      }
      throw err;
    } finally {
      ctx.state.db = scoped;
    }
    if (replayed) return replay(ctx, replayed);
    await runAfterCommit(ctx, deps);
  };
}

/**
 * transactional() for a request with an Idempotency-Key; a request without one runs its handler
 * with no request transaction, for a use case that runs its own (POST /v1/events/batch, whose
 * statements then go straight to node-postgres: rawTransaction in src/db/client.ts). The handler
 * tells which it got from hasIdempotencyKey(ctx).
 */
export function transactionalWhenKeyed(deps: AppDeps, opts: TransactionalOptions = {}): Middleware {
  const tx = transactional(deps, opts);
  return async (ctx, next) => {
    if (requestKey(ctx, opts)) return tx(ctx, next);
    await next();
    await runAfterCommit(ctx, deps);
  };
}

/** True when the request carries an Idempotency-Key (so transactionalWhenKeyed ran it in the request transaction). */
export function hasIdempotencyKey(ctx: AppContext): boolean {
  return requestKey(ctx, {}) !== '';
}

/** The kit of an area whose writes run in the request transaction: `areaOf(withTransaction)`. */
export function withTransaction(deps: AppDeps): { tx: Middleware; txWhenKeyed: Middleware } {
  return { tx: transactional(deps), txWhenKeyed: transactionalWhenKeyed(deps) };
}

/** How long a step-wise request's claim on its key holds before a retry may take it over. */
export const STEPWISE_CLAIM_LEASE_MS = 120_000;
const STEPWISE_WAIT_MS = 10_000;
const STEPWISE_POLL_MS = 100;

/**
 * For routes whose use case calls an outside system (the acquirer) and so runs its own short
 * transactions around the call instead of one request transaction (docs/idempotency.md
 * "Step-wise requests"). The Idempotency-Key is claimed first in a committed row (response
 * status 0); a concurrent request with the key waits up to 10 s for the response and replays it,
 * else gets 409 idempotency_key_in_use, exactly as behind transactional(). The response is stored
 * on the claimed row; a 5xx releases the key (the use case left its rows safe to resume, so the
 * client retries with the same key). A claim left by a crashed process is taken over after
 * STEPWISE_CLAIM_LEASE_MS: the use cases behind it are safe to run twice.
 * `ctx.state.db` is the tenant-scoped root client here, never a transaction.
 */
export function stepwise(deps: AppDeps, opts: TransactionalOptions = {}): Middleware {
  return async (ctx, next) => {
    const tenant = ctx.state.tenant;
    const scoped = ctx.state.db as ScopedDb | undefined;
    if (!tenant || !scoped) throw new Error('stepwise() must follow auth()');
    const key = requestKey(ctx, opts);
    if (!key) {
      await next();
      await runAfterCommit(ctx, deps);
      return;
    }
    const cutoff = retentionCutoff(deps);
    const staleClaim = new Date(Date.now() - STEPWISE_CLAIM_LEASE_MS);
    // One statement, its own transaction: the claim commits at once (a row older than the
    // retention starts again from attempt 0; a released one keeps its count).
    const claimed = await scoped.$queryRaw<Array<{ claimed: number; update_attempt: number }>>`
      INSERT INTO idempotency_keys (merchant_id, mode, key, request_method, request_path, response_status, created_at)
      SELECT ${tenant.merchantId}, ${tenant.mode}::"Mode", ${key}, ${ctx.method}, ${ctx.path}, 0, now()
        FROM (SELECT set_config('lock_timeout', ${LOCK_WAIT}, true)) AS bounded WHERE true
      ON CONFLICT (merchant_id, mode, key) DO UPDATE
        SET request_method = EXCLUDED.request_method, request_path = EXCLUDED.request_path,
            response_status = 0, response_body = NULL, created_at = now(),
            update_attempt = CASE WHEN idempotency_keys.created_at < ${cutoff} THEN 0 ELSE idempotency_keys.update_attempt END
        WHERE idempotency_keys.created_at < ${cutoff}
           OR idempotency_keys.response_status = ${RELEASED}
           OR (idempotency_keys.response_status = 0 AND idempotency_keys.created_at < ${staleClaim})
      RETURNING 1 AS claimed, update_attempt`.catch((err: unknown) => {
      if (isLockTimeout(err)) throw errors.idempotencyKeyInUse('Another request with this Idempotency-Key is still in progress; retry later.', 'Idempotency-Key');
      throw err;
    });
    if (claimed.length === 0) {
      const deadline = Date.now() + STEPWISE_WAIT_MS;
      for (;;) {
        const stored = await readStored(scoped, tenant, key);
        if (stored && stored.responseStatus > 0) return replay(ctx, stored);
        if (!stored || stored.responseStatus === RELEASED) throw errors.idempotencyKeyInUse('A request with this Idempotency-Key has just failed; retry it.', 'Idempotency-Key');
        if (Date.now() >= deadline) throw errors.idempotencyKeyInUse('Another request with this Idempotency-Key is still in progress; retry later.', 'Idempotency-Key');
        await new Promise((resolve) => setTimeout(resolve, STEPWISE_POLL_MS));
      }
    }
    ctx.state.updateAttempt = Number(claimed[0]!.update_attempt ?? 0);
    ctx.state.updateFailed = false;
    const ours = (status: number, text: string | null) => scoped.$executeRaw`
      UPDATE idempotency_keys SET response_status = ${status}, response_body = ${text}::json
      WHERE merchant_id = ${tenant.merchantId} AND mode = ${tenant.mode}::"Mode" AND key = ${key} AND response_status = 0`;
    try {
      await next();
    } catch (err) {
      if (err instanceof ApiError && err.status < 500 && err.code !== 'idempotency_key_in_use') {
        await ours(err.status, JSON.stringify(errorBody(err, ctx.state.requestId)));
      } else {
        // Released, not deleted: a retry with the key takes it over at once, and a workflow update
        // that failed for good under this attempt's id is not asked again (the retry's update id
        // names the next attempt: requestKeyOf in api/context.ts).
        const bump = ctx.state.updateFailed ? 1 : 0;
        await scoped.$executeRaw`
          UPDATE idempotency_keys SET response_status = ${RELEASED}, update_attempt = update_attempt + ${bump}
          WHERE merchant_id = ${tenant.merchantId} AND mode = ${tenant.mode}::"Mode" AND key = ${key} AND response_status = 0`.catch((release: unknown) => {
          // Not even the release got a connection: the claim's lease (STEPWISE_CLAIM_LEASE_MS) frees the key.
          deps.log(`[${ctx.state.requestId}] could not release Idempotency-Key claim: ${(release as Error).message.split('\n')[0]}`);
        });
      }
      throw err;
    }
    const body = storableBody(ctx);
    await ours(ctx.status, body === undefined || body === null || body === '' ? null : JSON.stringify(body));
    await runAfterCommit(ctx, deps);
  };
}

/** The stored response of a key, as text (the claim has already judged its age). */
async function readStored(db: ScopedDb | ScopedTx, tenant: { merchantId: string; mode: string }, key: string): Promise<Stored | undefined> {
  const rows = await db.$queryRaw<Array<{ response_status: number; response_text: string | null }>>`
    SELECT response_status, response_body::text AS response_text FROM idempotency_keys
    WHERE merchant_id = ${tenant.merchantId} AND mode = ${tenant.mode}::"Mode" AND key = ${key}`;
  const r = rows[0];
  return r ? { responseStatus: Number(r.response_status), responseText: r.response_text } : undefined;
}

/** The response as stored for replay: secrets named by the route are replaced with null. */
function storableBody(ctx: AppContext): unknown {
  const body = ctx.body;
  const redact = ctx.state.redactOnReplay;
  if (!redact?.length || body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  const copy: Record<string, unknown> = { ...(body as Record<string, unknown>) };
  for (const field of redact) if (field in copy) copy[field] = null;
  return copy;
}

async function storeErrorResponse(scoped: ScopedDb, ctx: AppContext, key: string, err: ApiError): Promise<void> {
  const tenant = ctx.state.tenant!;
  // The failed request's writes were rolled back; only its error response is kept. If another
  // request with the key executed meanwhile, its row wins (ON CONFLICT DO NOTHING).
  await scoped.$executeRaw`
    INSERT INTO idempotency_keys (merchant_id, mode, key, request_method, request_path, response_status, response_body, created_at)
    VALUES (${tenant.merchantId}, ${tenant.mode}::"Mode", ${key}, ${ctx.method}, ${ctx.path}, ${err.status},
            ${JSON.stringify(errorBody(err, ctx.state.requestId))}::json, now())
    ON CONFLICT (merchant_id, mode, key) DO NOTHING`;
}

/** Side effects that must not happen unless the writes committed (starting workflows, …). */
export async function runAfterCommit(ctx: AppContext, deps: AppDeps): Promise<void> {
  for (const task of ctx.state.afterCommit.splice(0)) {
    try {
      await task();
    } catch (err) {
      // The committed state is the truth; reconcilers repair a missed side effect.
      deps.log(`[${ctx.state.requestId}] after-commit task failed: ${(err as Error).stack ?? String(err)}`);
    }
  }
}
