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
