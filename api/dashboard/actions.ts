// One path for every dashboard action: role check on the server, CSRF check, the domain function
// in one transaction with the audit entry of its success, side effects after commit, and an
// audit entry for a refusal or failure too. Pages and the dashboard-only JSON routes both use it.
import type { AppContext } from '../context';
import { ApiError, errors } from '../../src/errors';
import type { ScopedTx } from '../../src/db/tenancy';
import type { Permission } from '../../src/domain/dashboard-users/roles';
import { recordAuditEntry } from '../../src/domain/dashboard-audit/record-audit-entry';
import { assertPermission, csrfValid, type Dashboard } from './session';
import { assertSameOrigin, field } from './http';
import { requestScope, type RequestScope } from '../../src/domain/request-scope';

export interface ActionSpec<T> {
  permission: Permission;
  /** `invoice.pay`, `api_key.create`, … */
  action: string;
  objectType?: string;
  objectId?: string | null;
  /** Whether the object lives in a mode (test/live data) rather than in the merchant as a whole. */
  modeScoped?: boolean;
  /**
   * Step-wise: the call reaches an outside system (an acquirer, a bank) and must not hold a
   * transaction open meanwhile; it gets the tenant-scoped root client and commits its own steps
   * (as the API's `stepwise` routes do). The audit row is written after it.
   */
  stepwise?: boolean;
  /** The domain call, inside the transaction (or step-wise). Push side effects onto `afterCommit`. */
  run: (tx: ScopedTx, afterCommit: Array<() => Promise<void>>, scope: RequestScope) => Promise<T>;
  /** Details worth keeping (never secrets). */
  detail?: (result: T) => Record<string, unknown>;
  /** The object id known only from the result (e.g. a created key). */
  resultId?: (result: T) => string | null | undefined;
}

const TX = { timeout: 60_000, maxWait: 10_000 };

async function audit(
  d: Dashboard,
  spec: ActionSpec<unknown>,
  outcome: 'succeeded' | 'failed' | 'denied',
  detail: Record<string, unknown>,
  objectId: string | null | undefined,
  db = d.deps.db,
): Promise<void> {
  await recordAuditEntry(db, {
    merchantId: d.merchant.id,
    objectMode: spec.modeScoped === false ? null : d.tenant.mode,
    actorUserId: d.user.id,
    actorEmail: d.user.email,
    action: spec.action,
    objectType: spec.objectType ?? null,
    objectId: objectId ?? null,
    outcome,
    detail,
    ip: d.ip,
    userAgent: d.userAgent,
  });
}

export async function act<T>(ctx: AppContext, d: Dashboard, spec: ActionSpec<T>): Promise<T> {
  try {
    assertSameOrigin(ctx);
    if (!csrfValid(ctx, d)) throw errors.csrfTokenInvalid('This form has expired or did not come from the dashboard; reload the page and try again', '_csrf');
    assertPermission(d, spec.permission);
  } catch (err) {
    const e = err as ApiError;
    await audit(d, spec as ActionSpec<unknown>, 'denied', { code: e.code }, spec.objectId).catch((x: unknown) => d.deps.log(`audit write failed: ${(x as Error).message}`));
    throw err;
  }
  const afterCommit: Array<() => Promise<void>> = [];
  let result: T;
  // The form's one-time token names the request to workflows: a form sent twice (a double
  // click, a resubmit) applies its command once.
  const nonce = field(d.form, '_idem');
  const key = { prefix: 'dashboard', key: /^[A-Za-z0-9_-]{16,64}$/.test(nonce) ? nonce : ctx.state.requestId, requestId: ctx.state.requestId };
  try {
    if (spec.stepwise) {
      const scope = requestScope({ tenant: d.tenant, db: d.db, key, afterCommit });
      result = await spec.run(d.db as unknown as ScopedTx, afterCommit, scope);
      await audit(d, spec as ActionSpec<unknown>, 'succeeded', spec.detail?.(result) ?? {}, spec.resultId?.(result) ?? spec.objectId);
    } else {
      result = await d.db.$transaction(async (tx) => {
        const scope = requestScope({ tenant: d.tenant, db: tx, key, afterCommit });
        const r = await spec.run(tx, afterCommit, scope);
        await audit(d, spec as ActionSpec<unknown>, 'succeeded', spec.detail?.(r) ?? {}, spec.resultId?.(r) ?? spec.objectId, tx as unknown as typeof d.deps.db);
        return r;
      }, TX);
    }
  } catch (err) {
    const code = err instanceof ApiError ? err.code : 'internal_error';
    await audit(d, spec as ActionSpec<unknown>, 'failed', { code, ...(err instanceof ApiError ? { message: err.message, param: err.param } : {}) }, spec.objectId).catch(
      (x: unknown) => d.deps.log(`audit write failed: ${(x as Error).message}`),
    );
    throw err;
  }
  for (const task of afterCommit) {
    try {
      await task();
    } catch (err) {
      d.deps.log(`[${ctx.state.requestId}] dashboard after-commit task failed: ${(err as Error).stack ?? String(err)}`);
    }
  }
  return result;
}

/** The spec fields of an action on the merchant's own settings (not in a mode). */
export function merchantAction(
  d: Dashboard,
  permission: Permission,
  action: string,
): Pick<ActionSpec<unknown>, 'permission' | 'action' | 'objectType' | 'objectId' | 'modeScoped'> {
  return { permission, action, objectType: 'merchant', objectId: d.merchant.id, modeScoped: false };
}

/** Actions on the merchant's users and sessions (not in a mode): same checks, raw client. */
export async function actOnTeam<T>(
  ctx: AppContext,
  d: Dashboard,
  spec: Omit<ActionSpec<T>, 'run' | 'modeScoped'> & { run: (db: Dashboard['deps']['db']) => Promise<T> },
): Promise<T> {
  return act(ctx, d, {
    ...spec,
    modeScoped: false,
    run: async (tx) => spec.run(tx as unknown as Dashboard['deps']['db']),
  });
}
