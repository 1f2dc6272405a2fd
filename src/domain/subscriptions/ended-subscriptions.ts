// Commands to a subscription whose workflow has finished (canceled and nothing left to collect):
// answered from the database alone. Canceling again changes nothing; uncancel, pause and resume
// are refused with their codes; only metadata may still change.
import type { Tenant, TenantDb } from '../../db/tenancy';
import type { Subscription } from '../../generated/prisma/client';
import { errors } from '../../errors';
import type { RecordedEvent } from '../../events';
import { mergeMetadataPatch, validateMetadataPatch, type Metadata } from '../../validation';
import type { SubscriptionCommand } from '../../contracts/subscriptions';
import { metadataOrThrow } from '../customers/customer-fields';
import { recordSubscriptionEvent } from './subscription-events';

export async function commandOnEndedSubscription(db: TenantDb, tenant: Tenant, sub: Subscription, cmd: SubscriptionCommand): Promise<RecordedEvent[]> {
  if (sub.status !== 'canceled') throw errors.serviceUnavailable('The subscription\'s workflow is not running; retry shortly');
  switch (cmd.kind) {
    case 'cancel':
      return [];
    case 'uncancel':
      throw errors.cannotUncancel('The subscription is canceled; there is no pending cancellation to undo', 'id');
    case 'pause':
      throw errors.cannotPause('Only an active or trialing subscription can be paused; this one is canceled', 'id');
    case 'resume':
      throw errors.notPaused('Only a paused subscription can be resumed; this one is canceled', 'id');
    case 'update': {
      const keys = Object.keys(cmd.changes);
      if (keys.some((k) => k !== 'metadata')) throw errors.invalidState('The subscription is canceled; only its metadata can change', 'id');
      if (cmd.changes.metadata === undefined) return [];
      const problems = validateMetadataPatch(cmd.changes.metadata);
      if (problems.length > 0) throw errors.validationFailed(problems[0]!.message, 'metadata');
      const merged = metadataOrThrow(mergeMetadataPatch(sub.metadata as Metadata, cmd.changes.metadata as Record<string, string | null>), 'metadata');
      const updated = await db.subscription.update({ where: { id: sub.id }, data: { metadata: merged } });
      return [await recordSubscriptionEvent(db, tenant, 'subscription.updated', updated)];
    }
    default:
      throw errors.invalidState('The subscription is canceled; its items cannot change', 'id');
  }
}
