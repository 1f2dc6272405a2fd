// uncancel: drops a pending cancellation (allowed only with one pending: subscription-commands.ts).
import type { CommandContext } from './command-context';
import { emit } from './command-context';

export async function uncancelSubscription(ctx: CommandContext): Promise<void> {
  const updated = await ctx.tx.subscription.update({ where: { id: ctx.sub.id }, data: { cancelAtPeriodEnd: false, canceledAt: null } });
  return emit(ctx, 'subscription.updated', updated);
}
