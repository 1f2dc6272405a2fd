// Validation of commands against the workflow's view (the update validator, and again inside
// the handler once it holds the lock, since the state may have moved while it waited).
// Deterministic: throws ApplicationFailure typed with the API's error code.
import { ApplicationFailure } from '@temporalio/workflow';
import type { SubscriptionCommand, SubscriptionView } from '../../src/contracts/subscriptions';

function refuse(type: string, message: string): never {
  throw ApplicationFailure.create({ type, message, details: ['id'], nonRetryable: true });
}

/** Throws when the command cannot apply to the subscription as the workflow sees it. */
export function checkCommand(view: SubscriptionView | null, cmd: SubscriptionCommand): void {
  if (view === null) return; // not loaded yet: the activity checks against the row
  switch (cmd.kind) {
    case 'pause':
      if (view.status !== 'active' && view.status !== 'trialing') refuse('cannot_pause', `Only an active or trialing subscription can be paused; this one is ${view.status}`);
      return;
    case 'resume':
      if (view.status !== 'paused') refuse('not_paused', `Only a paused subscription can be resumed; this one is ${view.status}`);
      return;
    case 'uncancel':
      if (!view.cancelAtPeriodEnd || view.status === 'canceled') refuse('cannot_uncancel', 'The subscription has no pending cancellation to undo');
      return;
    case 'cancel':
    case 'pay_invoice':
    case 'void_invoice':
      return;
    case 'update':
      if (view.status === 'canceled' && Object.keys(cmd.changes).some((k) => k !== 'metadata')) refuse('invalid_state', 'The subscription is canceled; only its metadata can change');
      return;
    case 'add_item':
    case 'update_item':
    case 'delete_item':
      if (view.status === 'canceled') refuse('invalid_state', 'The subscription is canceled; its items cannot change');
      return;
  }
}
