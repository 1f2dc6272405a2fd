// The one way a request reaches a subscription's workflow: the test-clock check, the Update
// (update-with-start), and the mapping of every answer to the API's errors. Used by
// run-subscription-command.ts and the invoice actions (src/domain/invoices/pay-invoice-now.ts,
// void-invoice.ts); what to do when the workflow has finished is theirs.
import type { Subscription } from '../../generated/prisma/client';
import { errors } from '../../errors';
import type { CommandResult, SubscriptionCommand } from '../../contracts/subscriptions';
import type { RequestScope } from '../request-scope';
import { askWorkflow, workflowUnavailableError } from '../workflow-calls';
import type { CommandDeps } from './command-deps';
import { refusalError } from './command-refusal';

/** The workflow has finished (canceled, nothing left to collect): the caller answers from the database. */
export const WORKFLOW_ENDED = 'ended' as const;

/** The subscription's test clock time (ISO), null without a clock; refused while the clock advances. */
async function clockTimeOf(scope: RequestScope, sub: Subscription): Promise<string | null> {
  if (!sub.testClockId) return null;
  const clock = await scope.db.testClock.findFirst({ where: { id: sub.testClockId } });
  if (clock?.status === 'advancing') throw errors.invalidState("The subscription's test clock is advancing; retry when it is ready", 'id');
  return clock?.frozenTime.toISOString() ?? null;
}

const UNAVAILABLE = 'The subscription could not be changed right now; retry shortly';

export async function sendSubscriptionCommand(
  deps: CommandDeps,
  scope: RequestScope,
  sub: Subscription,
  command: SubscriptionCommand,
): Promise<CommandResult | typeof WORKFLOW_ENDED> {
  const clockTime = await clockTimeOf(scope, sub);
  // On a test clock: until the workflow has applied the command and recorded its next due time
  // again, every advance wakes the subscription (the command may bring a step forward).
  if (sub.testClockId)
    await scope.db.$executeRaw`UPDATE subscriptions SET clock_wake_at = NULL
      WHERE id = ${sub.id} AND merchant_id = ${scope.tenant.merchantId} AND mode = ${scope.tenant.mode}::"Mode" AND clock_wake_at IS NOT NULL`;
  const ref = { subscriptionId: sub.id, merchantId: scope.tenant.merchantId, mode: scope.tenant.mode, customerId: sub.customerId, status: sub.status, clockTime };
  // 503 only when Temporal is unreachable, timing out or overloaded (the update id makes the
  // retry apply once); anything else is unexpected: rethrown, it becomes a logged 500.
  const outcome = await askWorkflow(deps, `subscription ${sub.id}: command ${command.kind}`, UNAVAILABLE, () =>
    deps.workflows.subscription.command(ref, command, scope.requestKey),
  );
  switch (outcome.kind) {
    case 'applied':
      return outcome.result;
    case 'ended':
      return WORKFLOW_ENDED;
    case 'refused':
      throw refusalError(outcome.refusal);
    case 'failed':
      // Temporal keeps this failure as the update's outcome: a resend with the same key sends a
      // new update id (RequestScope.updateFailed); the command id inside the workflow stays the
      // key's, so a command the failed attempt did apply is not applied twice.
      scope.updateFailed?.();
      throw workflowUnavailableError(UNAVAILABLE);
  }
}
