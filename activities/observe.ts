// The activities' metric hooks, kept here so each activity changes by one line: the outcome each
// activity decided, counted on the injected metrics (src/observability/metrics.ts).
import type { Db } from '../src/db/client';
import type { Metrics } from '../src/observability/metrics';
import type { AttemptDeliveryInput, AttemptDeliveryResult } from '../src/contracts/webhooks';
import type { AccountingSyncInput, SyncBatchResult } from '../src/contracts/accounting';

export { countBillingStep } from '../src/observability/step-outcomes';

/** One webhook attempt: its outcome, and on delivery how long after the delivery was queued. */
export async function observeWebhookAttempt(db: Db, metrics: Metrics, input: AttemptDeliveryInput, result: AttemptDeliveryResult): Promise<void> {
  metrics.webhookAttempts.inc({ outcome: result.outcome });
  if (result.outcome !== 'delivered') return;
  const row = await db.webhookDelivery.findUnique({ where: { id: input.deliveryId }, select: { createdAt: true } }).catch(() => null);
  if (row) metrics.webhookDeliveryLag.observe(Math.max(0, (Date.now() - row.createdAt.getTime()) / 1000));
}

/** One accounting push batch: records pushed and failed, and the age of the oldest record still waiting on the link. */
export async function observeAccountingBatch(db: Db, metrics: Metrics, input: AccountingSyncInput, result: SyncBatchResult): Promise<void> {
  if (result.pushed > 0) metrics.accountingSyncRecords.inc({ outcome: 'pushed' }, result.pushed);
  if (result.failed > 0) metrics.accountingSyncRecords.inc({ outcome: 'failed' }, result.failed);
  const oldest = await db.accountingSyncRecord
    .findFirst({ where: { linkId: input.linkId, status: 'pending' }, orderBy: { createdAt: 'asc' }, select: { createdAt: true } })
    .catch(() => null);
  metrics.setAccountingSyncLag(input.linkId, oldest ? (Date.now() - oldest.createdAt.getTime()) / 1000 : 0);
}
