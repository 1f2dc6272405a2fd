// resume: back to trialing (if paused in a trial that has not ended) or active.
import type { CommandContext } from './command-context';
import { emit } from './command-context';

export async function resumeSubscription(ctx: CommandContext): Promise<void> {
  const { sub, now } = ctx;
  const back = sub.statusBeforePause === 'trialing' && sub.trialEnd !== null && sub.trialEnd > now ? 'trialing' : 'active';
  const updated = await ctx.tx.subscription.update({ where: { id: sub.id }, data: { status: back, pausedAt: null, statusBeforePause: null } });
  return emit(ctx, 'subscription.resumed', updated);
}
