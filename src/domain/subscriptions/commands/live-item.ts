import type { SubscriptionItem } from '../../../generated/prisma/client';
import { errors } from '../../../errors';
import type { CommandContext } from './command-context';

/** The subscription's item `itemId` that is not deleted, or resource_missing. */
export async function liveItem(ctx: CommandContext, itemId: string): Promise<SubscriptionItem> {
  const item = await ctx.tx.subscriptionItem.findFirst({ where: { id: itemId, subscriptionId: ctx.sub.id, deletedAt: null } });
  if (!item) throw errors.resourceMissing(`No such subscription item: '${itemId}'`, 'id');
  return item;
}
