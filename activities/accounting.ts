// Accounting sync activity: one push batch (src/domain/accounting/push-sync-records.ts). A
// provider that is unavailable or rate-limits is a retryable failure whose next retry waits for
// its Retry-After; everything else the batch records itself.
import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Db } from '../src/db/client';
import type { Config } from '../src/config';
import { dispatchEventsFromActivity } from '../src/events';
import { pushSyncBatch } from '../src/domain/accounting/push-sync-records';
import { ProviderUnavailableError } from '../src/gateways/accounting/adapter';
import type { Metrics } from '../src/observability/metrics';
import { observeAccountingBatch } from './observe';
import { PROVIDER_UNAVAILABLE, type AccountingSyncInput, type SyncBatchResult } from '../src/contracts/accounting';

export interface AccountingActivityDeps {
  db: Db;
  config: Config;
  log: (line: string) => void;
  metrics: Metrics;
}

export function createAccountingActivities(deps: AccountingActivityDeps) {
  return {
    async pushAccountingSyncBatch(input: AccountingSyncInput): Promise<SyncBatchResult> {
      const ctx = Context.current();
      try {
        const result = await pushSyncBatch(
          { db: deps.db, config: deps.config, heartbeat: () => ctx.heartbeat(), onEvents: async (events) => void (await dispatchEventsFromActivity(deps.db, events, deps.log)) },
          input,
        );
        await observeAccountingBatch(deps.db, deps.metrics, input, result);
        return result;
      } catch (err) {
        if (err instanceof ProviderUnavailableError) {
          throw ApplicationFailure.create({
            message: err.message,
            type: PROVIDER_UNAVAILABLE,
            ...(err.retryAfterMs !== null ? { nextRetryDelay: Math.max(1000, err.retryAfterMs) } : {}),
          });
        }
        throw err;
      }
    },
  };
}

export type AccountingActivities = ReturnType<typeof createAccountingActivities>;
