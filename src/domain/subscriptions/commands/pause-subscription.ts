// pause: an active or trialing subscription stops billing until resumed (it remembers which it was).
import type { CommandContext } from './command-context';
import { emit } from './command-context';

export async function pauseSubscription(ctx: CommandContext): Promise<void> {
  const { sub, now } = ctx;
  const updated = await ctx.tx.subscription.update({ where: { id: sub.id }, data: { status: 'paused', pausedAt: now, statusBeforePause: sub.status } });
  return emit(ctx, 'subscription.paused', updated);
}
