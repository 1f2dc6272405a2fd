// Validation of commands against the workflow's view (the update validator, and again inside
// the handler once it holds the lock, since the state may have moved while it waited), by the
// rules in src/contracts/subscription-commands.ts. Deterministic: throws the refusal's typed
// failure (src/contracts/refusal.ts).
import { refusalFailure } from '../../src/contracts/refusal';
import type { SubscriptionCommand, SubscriptionView } from '../../src/contracts/subscriptions';
import { commandRefusal } from '../../src/contracts/subscription-commands';

/** Throws when the command cannot apply to the subscription as the workflow sees it. */
export function checkCommand(view: SubscriptionView | null, cmd: SubscriptionCommand): void {
  if (view === null) return; // not loaded yet: the activity checks against the row
  const refusal = commandRefusal(view, cmd);
  if (refusal) throw refusalFailure(refusal);
}
