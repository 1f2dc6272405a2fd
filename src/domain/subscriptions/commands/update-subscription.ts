// update: pending cancellation, discount (from the next invoice on), collection method and
// days until due, metadata. A canceled subscription only takes metadata (subscription-commands.ts).
import { Prisma } from '../../../generated/prisma/client';
import { errors } from '../../../errors';
import type { Metadata } from '../../../validation';
import type { SubscriptionChanges } from '../../../contracts/subscriptions';
import { checkCollection, parseDiscount } from '../subscription-rules';
import { emit, mergedMetadata, type CommandContext } from './command-context';

export async function updateSubscription(ctx: CommandContext, changes: SubscriptionChanges): Promise<void> {
  const { tx, sub } = ctx;
  const data: Record<string, unknown> = {};
  if (changes.cancel_at_period_end !== undefined && changes.cancel_at_period_end !== sub.cancelAtPeriodEnd) {
    data.cancelAtPeriodEnd = changes.cancel_at_period_end;
    data.canceledAt = changes.cancel_at_period_end ? ctx.now : null;
  }
  if (changes.discount !== undefined) {
    if (changes.discount === null) {
      data.discount = Prisma.DbNull;
      data.discountStart = null;
    } else {
      data.discount = parseDiscount(changes.discount);
      // From the next invoice on: the one at trial end, or at the current period's end.
      data.discountStart = sub.status === 'trialing' && sub.trialEnd ? sub.trialEnd : sub.currentPeriodEnd;
    }
  }
  if (changes.collection_method !== undefined || changes.days_until_due !== undefined) {
    const method = changes.collection_method ?? sub.collectionMethod;
    const customer = await tx.customer.findFirst({ where: { id: sub.customerId } });
    if (!customer) throw errors.invalidState("The subscription's customer is gone", 'customer');
    const days = changes.days_until_due !== undefined ? changes.days_until_due : method === sub.collectionMethod ? sub.daysUntilDue : undefined;
    data.collectionMethod = method;
    data.daysUntilDue = await checkCollection(tx, customer, method, sub.currency, days);
  }
  if (changes.metadata !== undefined) data.metadata = mergedMetadata(sub.metadata as Metadata, changes.metadata, 'metadata');
  if (Object.keys(data).length === 0) return;
  const updated = await tx.subscription.update({ where: { id: sub.id }, data: data as never });
  await emit(ctx, 'subscription.updated', updated);
}
