// delete_item: removes an item (never the last one), crediting unused licensed time if asked.
import { errors } from '../../../errors';
import type { ProrationBehavior } from '../../../contracts/subscriptions';
import { emit, type CommandContext } from './command-context';
import { liveItem } from './live-item';
import { fullPeriodAmount, pricedFacts, prorateChange } from './prorate-change';
import { formatCalendarDay } from '../../../billing/calendar-day';

export async function deleteSubscriptionItem(ctx: CommandContext, itemId: string, behavior: ProrationBehavior): Promise<void> {
  const { tx, sub, now } = ctx;
  const item = await liveItem(ctx, itemId);
  const count = await tx.subscriptionItem.count({ where: { subscriptionId: sub.id, deletedAt: null } });
  if (count <= 1) throw errors.invalidSubscription('A subscription needs at least one item; cancel the subscription instead', 'id');
  await tx.subscriptionItem.update({ where: { id: item.id }, data: { deletedAt: now } });
  const price = await tx.price.findFirst({ where: { id: item.priceId } });
  if (price && price.recurringUsageType !== 'metered') {
    const { name, vatRate } = await pricedFacts(tx, price);
    await prorateChange(ctx, behavior, {
      oldAmount: fullPeriodAmount(price, item.quantity),
      newAmount: 0,
      oldVatRate: vatRate,
      newVatRate: vatRate,
      label: () => `Unused time on ${item.quantity} × ${name} after ${formatCalendarDay(now, 'en')}`,
    });
  }
  await emit(ctx, 'subscription.updated', await tx.subscription.findFirstOrThrow({ where: { id: sub.id } }));
}
