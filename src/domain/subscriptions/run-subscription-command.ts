// THE entry point for changing a subscription after it was created (cancel, uncancel, pause,
// resume, update, item add/update/delete), for every caller: API routes, portal, dashboard.
// The command goes to the subscription's workflow (send-subscription-command.ts), which applies
// it under the same lock as its billing steps (apply-command.ts); a subscription whose workflow
// has finished is answered from the database here, under the same rules
// (src/contracts/subscription-commands.ts). Invoice actions: src/domain/invoices/.
import type { Subscription } from '../../generated/prisma/client';
import type { CommandResult, SubscriptionCommand } from '../../contracts/subscriptions';
import type { Metadata } from '../../validation';
import type { ScopedDb, TenantDb } from '../../db/tenancy';
import type { RequestScope } from '../request-scope';
import { dispatchAfterCommit, type CommandDeps } from './command-deps';
import { assertCommandAllowed } from './command-refusal';
import { mergedMetadata } from './commands/command-context';
import { findSubscription } from './find-subscriptions';
import { recordSubscriptionEvent } from './subscription-events';
import { sendSubscriptionCommand, WORKFLOW_ENDED } from './send-subscription-command';

/** Commands to the subscription itself; invoices have payInvoiceNow and voidInvoice. */
export type SubscriptionChangeCommand = Exclude<SubscriptionCommand, { kind: 'pay_invoice' | 'void_invoice' }>;

/**
 * Applies `command` to the subscription (an id of the scope's tenant, or its row already read)
 * and returns once it is applied; the caller then reads the subscription from the database.
 * Throws the ApiError of a refusal (cannot_pause, not_paused, …) or service_unavailable.
 */
export async function runSubscriptionCommand(
  deps: CommandDeps,
  scope: RequestScope,
  subscription: string | Subscription,
  command: SubscriptionChangeCommand,
): Promise<CommandResult> {
  const sub = typeof subscription === 'string' ? await findSubscription(scope.db, subscription) : subscription;
  const result = await sendSubscriptionCommand(deps, scope, sub, command);
  if (result !== WORKFLOW_ENDED) return result;
  await commandOnEndedSubscription(deps, scope, await findSubscription(scope.db, sub.id), command);
  return { objectId: null };
}

/**
 * A subscription whose workflow has finished is canceled: canceling again changes nothing, the
 * other commands are refused by the rules, only metadata may still change.
 */
async function commandOnEndedSubscription(deps: CommandDeps, scope: RequestScope, sub: Subscription, cmd: SubscriptionChangeCommand): Promise<void> {
  // Only a canceled subscription's workflow finishes (src/contracts/subscription-schedule.ts isFinished)
  // and `sub` was read after the workflow said it had: anything else is a broken invariant for an
  // operator, a logged 500, not a 503 inviting retries that cannot succeed.
  if (sub.status !== 'canceled') throw new Error(`subscription ${sub.id}: its workflow has finished but its status is ${sub.status}`);
  assertCommandAllowed(sub, cmd);
  if (cmd.kind !== 'update' || cmd.changes.metadata === undefined) return;
  const changes = cmd.changes.metadata;
  // The change and its event in one short transaction of its own (the request holds none: it
  // waited on the workflow before, docs/architecture.md), or in the caller's when it has one.
  const write = async (db: TenantDb) => {
    const metadata = mergedMetadata(sub.metadata as Metadata, changes, 'metadata');
    const updated = await db.subscription.update({ where: { id: sub.id }, data: { metadata } });
    return recordSubscriptionEvent(db, scope.tenant, 'subscription.updated', updated);
  };
  const event = '$transaction' in scope.db ? await (scope.db as ScopedDb).$transaction((tx) => write(tx)) : await write(scope.db);
  dispatchAfterCommit(deps, scope, [event]);
}
