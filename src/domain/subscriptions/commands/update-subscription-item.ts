// update_item: quantity (licensed, prorated), credit rollover and included units (metered), metadata.
import { errors } from '../../../errors';
import type { Metadata } from '../../../validation';
import type { ItemChanges, ProrationBehavior } from '../../../contracts/subscriptions';
import { emit, mergedMetadata, type CommandContext } from './command-context';
import { liveItem } from './live-item';
import { fullPeriodAmount, pricedFacts, prorateChange } from './prorate-change';
import { formatCalendarDay } from '../../../billing/calendar-day';

export async function updateSubscriptionItem(ctx: CommandContext, itemId: string, changes: ItemChanges, behavior: ProrationBehavior): Promise<void> {
  const { tx, sub, now } = ctx;
  const item = await liveItem(ctx, itemId);
  const price = await tx.price.findFirst({ where: { id: item.priceId } });
  if (!price) throw errors.invalidState(`The item's price '${item.priceId}' is gone`, 'id');
  const metered = price.recurringUsageType === 'metered';
  const data: Record<string, unknown> = {};
  if (changes.quantity !== undefined && changes.quantity !== item.quantity) {
    if (metered) throw errors.validationFailed('quantity is not used for metered prices (usage comes from the meter)', 'quantity');
    data.quantity = changes.quantity;
  }
  if (changes.credit_rollover !== undefined) {
    if (!metered && changes.credit_rollover) throw errors.validationFailed('credit_rollover applies only to items with a metered price', 'credit_rollover');
    data.creditRollover = changes.credit_rollover;
  }
  if (changes.included_units !== undefined) {
    if (!metered && changes.included_units !== null) throw errors.validationFailed('included_units applies only to items with a metered price', 'included_units');
    data.includedUnits = changes.included_units === null ? null : BigInt(changes.included_units);
  }
  if (changes.metadata !== undefined) data.metadata = mergedMetadata(item.metadata as Metadata, changes.metadata, 'metadata');
  if (Object.keys(data).length === 0) return;
  await tx.subscriptionItem.update({ where: { id: item.id }, data: data as never });
  if (data.quantity !== undefined) {
    const { name, vatRate } = await pricedFacts(tx, price);
    const q = data.quantity as number;
    await prorateChange(ctx, behavior, {
      oldAmount: fullPeriodAmount(price, item.quantity),
      newAmount: fullPeriodAmount(price, q),
      oldVatRate: vatRate,
      newVatRate: vatRate,
      label: (kind) =>
        kind === 'credit'
          ? `Unused time on ${item.quantity} × ${name} after ${formatCalendarDay(now, 'en')}`
          : `Remaining time on ${q} × ${name} after ${formatCalendarDay(now, 'en')}`,
    });
  }
  await emit(ctx, 'subscription.updated', await tx.subscription.findFirstOrThrow({ where: { id: sub.id } }));
}
