// cancel: now (status canceled) or at the period end (a pending cancellation). Twice changes nothing.
import type { CommandContext } from './command-context';
import { emit } from './command-context';

export async function cancelSubscription(ctx: CommandContext, atPeriodEnd: boolean): Promise<void> {
  const { tx, sub, now } = ctx;
  if (sub.status === 'canceled') return;
  if (atPeriodEnd) {
    if (sub.cancelAtPeriodEnd) return;
    const updated = await tx.subscription.update({ where: { id: sub.id }, data: { cancelAtPeriodEnd: true, canceledAt: now } });
    return emit(ctx, 'subscription.updated', updated);
  }
  const updated = await tx.subscription.update({
    where: { id: sub.id },
    data: { status: 'canceled', canceledAt: now, endedAt: now, pausedAt: null, statusBeforePause: null },
  });
  return emit(ctx, 'subscription.canceled', updated);
}
