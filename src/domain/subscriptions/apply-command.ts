// Applies a command to a subscription in one transaction (the activity behind the workflow's
// `command` update, and the path for a subscription whose workflow has finished). The
// subscription row is locked for the whole change; the command id is inserted in the same
// transaction, so a retried activity applies a command once. Whether the command may apply at
// all is decided by the table in src/contracts/subscription-commands.ts; each command is one
// file in ./commands/. `now` is the subscription's time (its test clock's, or the workflow's).
// The meaning of each command: docs/subscriptions.md.
import type { Db } from '../../db/client';
import { scopedDb, type Tenant } from '../../db/tenancy';
import { errors } from '../../errors';
import type { RecordedEvent } from '../../events';
import type { ApplyCommandInput } from '../../contracts/subscriptions';
import { assertCommandAllowed } from './command-refusal';
import { lockSubscription, STEP_TX } from './lock-subscription';
import { cancelInvoiceBankClaim } from './steps/cancel-bank-claim';
import type { BillingStepDeps } from './steps/step-sql';
import type { CommandContext, CommandOutcome } from './commands/command-context';
import { cancelSubscription } from './commands/cancel-subscription';
import { uncancelSubscription } from './commands/uncancel-subscription';
import { pauseSubscription } from './commands/pause-subscription';
import { resumeSubscription } from './commands/resume-subscription';
import { updateSubscription } from './commands/update-subscription';
import { addSubscriptionItem } from './commands/add-subscription-item';
import { updateSubscriptionItem } from './commands/update-subscription-item';
import { deleteSubscriptionItem } from './commands/delete-subscription-item';
import { voidSubscriptionInvoice } from './commands/void-subscription-invoice';

export type { CommandOutcome } from './commands/command-context';

type AppliedCommand = ApplyCommandInput['command'];

function objectIdOf(cmd: AppliedCommand): string | null {
  if (cmd.kind === 'add_item' || cmd.kind === 'update_item' || cmd.kind === 'delete_item') return cmd.itemId;
  if (cmd.kind === 'void_invoice') return cmd.invoiceId;
  return null;
}

/**
 * Applies the command, hands its events to `dispatch`, then (outside the transaction: it calls
 * the bank) cancels the bank claim of an invoice it voided. Throws the ApiError of a refusal.
 */
export async function applySubscriptionCommand(deps: BillingStepDeps, input: ApplyCommandInput, dispatch: (events: RecordedEvent[]) => Promise<void>): Promise<CommandOutcome> {
  const outcome = await applyInTransaction(deps.db, input);
  await dispatch(outcome.events);
  if (outcome.claimToCancel) {
    await cancelInvoiceBankClaim(deps, { ...input, invoiceId: outcome.claimToCancel.invoiceId, claimId: outcome.claimToCancel.claimId });
  }
  return outcome;
}

async function applyInTransaction(db: Db, input: ApplyCommandInput): Promise<CommandOutcome> {
  const tenant: Tenant = { merchantId: input.merchantId, mode: input.mode };
  return scopedDb(db, tenant).$transaction(async (tx) => {
    await lockSubscription(tx, tenant, input.subscriptionId);
    const sub = await tx.subscription.findFirst({ where: { id: input.subscriptionId } });
    if (!sub) throw errors.resourceMissing(`No such subscription: '${input.subscriptionId}'`, 'id');
    const outcome: CommandOutcome = { objectId: objectIdOf(input.command), events: [], claimToCancel: null };
    if (await tx.subscriptionCommand.findFirst({ where: { id: input.commandId }, select: { id: true } })) return outcome;
    await tx.subscriptionCommand.create({
      data: { id: input.commandId, merchantId: tenant.merchantId, mode: tenant.mode, subscriptionId: sub.id, kind: input.command.kind },
    });
    assertCommandAllowed(sub, input.command);
    await run({ tx, tenant, sub, now: new Date(input.now), commandId: input.commandId, outcome }, input.command);
    return outcome;
  }, STEP_TX);
}

async function run(ctx: CommandContext, cmd: AppliedCommand): Promise<void> {
  switch (cmd.kind) {
    case 'cancel':
      return cancelSubscription(ctx, cmd.atPeriodEnd);
    case 'uncancel':
      return uncancelSubscription(ctx);
    case 'pause':
      return pauseSubscription(ctx);
    case 'resume':
      return resumeSubscription(ctx);
    case 'update':
      return updateSubscription(ctx, cmd.changes);
    case 'add_item':
      return addSubscriptionItem(ctx, cmd.itemId, cmd.item, cmd.prorationBehavior);
    case 'update_item':
      return updateSubscriptionItem(ctx, cmd.itemId, cmd.changes, cmd.prorationBehavior);
    case 'delete_item':
      return deleteSubscriptionItem(ctx, cmd.itemId, cmd.prorationBehavior);
    case 'void_invoice':
      return voidSubscriptionInvoice(ctx, cmd.invoiceId);
    default:
      return unhandledCommand(cmd);
  }
}

/**
 * The switch above is exhaustive: a command kind without a `case` leaves `cmd` not `never` here
 * and does not compile (test/unit/command-switch.test.ts). At run time (a command from a newer
 * client) it throws, so the transaction rolls back and the command id is not recorded.
 */
function unhandledCommand(cmd: never): never {
  throw new Error(`subscription command '${(cmd as { kind?: unknown }).kind}' has no handler in apply-command.ts`);
}
