// add_item: a new item (a price of the subscription's currency and interval), prorated when licensed.
import type { ItemFields, ProrationBehavior } from '../../../contracts/subscriptions';
import { metadataOrThrow } from '../../checks/metadata';
import { checkItemSet, resolveItems } from '../subscription-rules';
import { itemsOf } from '../find-subscriptions';
import { emit, type CommandContext } from './command-context';
import { fullPeriodAmount, pricedFacts, prorateChange } from './prorate-change';
import { formatCalendarDay } from '../../../billing/calendar-day';

export async function addSubscriptionItem(ctx: CommandContext, itemId: string, item: ItemFields, behavior: ProrationBehavior): Promise<void> {
  const { tx, tenant, sub, now } = ctx;
  const current = await itemsOf(tx, sub.id);
  const [priced] = await resolveItems(tx, [item], () => null, { hasRecurring: current.length > 0 });
  checkItemSet([priced!], { currency: sub.currency, interval: sub.interval, intervalCount: sub.intervalCount, priceIds: current.map((i) => i.priceId) }, 'price');
  const metered = priced!.terms.usageType === 'metered';
  const quantity = metered ? 1 : (item.quantity ?? 1);
  await tx.subscriptionItem.create({
    data: {
      id: itemId,
      merchantId: tenant.merchantId,
      mode: tenant.mode,
      subscriptionId: sub.id,
      priceId: priced!.price.id,
      quantity,
      creditRollover: item.credit_rollover ?? false,
      includedUnits: item.included_units === undefined || item.included_units === null ? null : BigInt(item.included_units),
      metadata: metadataOrThrow(item.metadata),
    },
  });
  if (!metered) {
    const { name, vatRate } = await pricedFacts(tx, priced!.price);
    await prorateChange(ctx, behavior, {
      oldAmount: 0,
      newAmount: fullPeriodAmount(priced!.price, quantity),
      oldVatRate: vatRate,
      newVatRate: vatRate,
      label: () => `Remaining time on ${quantity} × ${name} after ${formatCalendarDay(now, 'en')}`,
    });
  }
  await emit(ctx, 'subscription.updated', await tx.subscription.findFirstOrThrow({ where: { id: sub.id } }));
}
