// What a use case called from a request (API route, portal or dashboard page) gets from it,
// without seeing the web framework: the tenant, the request's transaction, a key that names
// this request for idempotent workflow calls, and a way to run work after the commit.
import type { Tenant, TenantDb } from '../db/tenancy';

export interface RequestScope {
  tenant: Tenant;
  /**
   * The request's tenant-scoped database handle: inside its transaction for writes, except for
   * the use cases that call an outside system (they run their own transactions around the call,
   * and their routes run step-wise, docs/idempotency.md): there it is the scoped root client.
   */
  db: TenantDb;
  /**
   * Names this request: the same key (a repeated Idempotency-Key) gives the same workflow
   * update id, so a retried request is applied once even if its first transaction did not commit.
   */
  requestKey: string;
  /** Runs `work` after the request's transaction committed (never when it rolled back). */
  afterCommit(work: () => Promise<void>): void;
  /**
   * Says that the workflow update sent under `requestKey` failed for good (Temporal keeps that
   * outcome under the update id): the request is answered 503, and the same request resent with
   * its Idempotency-Key must send its update under a new id. Absent: the caller has no key to keep.
   */
  updateFailed?(): void;
}

/** How a request names itself to workflows (RequestScope.requestKey): one format for every surface. */
export interface RequestKeyParts {
  /** The surface's namespace: `idem` (API Idempotency-Key), `portal`, `dashboard`. */
  prefix: string;
  /** The caller's key (an Idempotency-Key, a portal session's key, a form's one-time token), if any. */
  key: string | null;
  /** Workflow updates sent under this key that failed for good: a resend names the next attempt. */
  failedAttempts?: number;
  /** Without a key: the request is named by its id (applied once only within this request). */
  requestId: string;
}

/** `prefix:key`, `prefix#N:key` after N-1 failed attempts, or `req:<request id>` without a key. */
export function requestKey(parts: RequestKeyParts): string {
  if (!parts.key) return `req:${parts.requestId}`;
  const failed = parts.failedAttempts ?? 0;
  return `${parts.prefix}${failed > 0 ? `#${failed + 1}` : ''}:${parts.key}`;
}

/**
 * The one builder of a RequestScope (the API's routes, the portal and the dashboard): work given
 * to afterCommit is queued on `afterCommit`, which the caller runs once its transaction committed.
 */
export function requestScope(input: { tenant: Tenant; db: TenantDb; key: RequestKeyParts; afterCommit: Array<() => Promise<void>>; updateFailed?: () => void }): RequestScope {
  return {
    tenant: input.tenant,
    db: input.db,
    requestKey: requestKey(input.key),
    afterCommit: (work) => void input.afterCommit.push(work),
    ...(input.updateFailed ? { updateFailed: input.updateFailed } : {}),
  };
}
