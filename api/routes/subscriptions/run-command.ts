// Sends a command to the subscription's workflow as an Update (update-with-start: a row whose
// workflow never started gets it now) and maps a refusal to the API error of the same code.
// The Update id is derived from the Idempotency-Key when there is one, so a retried request
// is applied once even if its first transaction did not commit.
import { WorkflowExecutionAlreadyStartedError, WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { AppContext, AppDeps } from '../../context';
import { dbOf, tenantOf } from '../../context';
import { ApiError, errors } from '../../../src/errors';
import type { Subscription } from '../../../src/generated/prisma/client';
import { COMMAND_ERROR_TYPES, type CommandResult, type SubscriptionCommand } from '../../../src/contracts/subscriptions';
import { executeSubscriptionCommand, type WorkflowTarget } from '../../../src/domain/subscriptions/workflow-control';

const FACTORIES: Record<string, (m: string, p?: string) => ApiError> = {
  cannot_pause: errors.cannotPause,
  cannot_uncancel: errors.cannotUncancel,
  not_paused: errors.notPaused,
  invalid_state: errors.invalidState,
  invalid_subscription: errors.invalidSubscription,
  invalid_price_type: errors.invalidPriceType,
  resource_not_found: errors.resourceNotFound,
  resource_missing: errors.resourceMissing,
  validation_failed: errors.validationFailed,
};

/** The workflow has finished: the caller answers from the database. */
export class SubscriptionWorkflowEnded extends Error {}

export async function workflowTarget(deps: AppDeps): Promise<WorkflowTarget> {
  try {
    return { client: await deps.temporal.client(), taskQueue: deps.temporal.taskQueue };
  } catch {
    throw errors.serviceUnavailable('The workflow service is unavailable; retry shortly');
  }
}

export function updateIdOf(ctx: AppContext): string {
  const key = ctx.get('Idempotency-Key');
  return key ? `idem:${key}` : `req:${ctx.state.requestId}`;
}

function toApiError(err: WorkflowUpdateFailedError): ApiError {
  const cause = err.cause;
  if (cause instanceof ApplicationFailure && cause.type && (COMMAND_ERROR_TYPES as readonly string[]).includes(cause.type)) {
    const param = Array.isArray(cause.details) && typeof cause.details[0] === 'string' ? cause.details[0] : undefined;
    return FACTORIES[cause.type]!(cause.message, param);
  }
  return errors.serviceUnavailable('The subscription could not be changed right now; retry shortly');
}

export async function sendSubscriptionCommand(ctx: AppContext, deps: AppDeps, sub: Subscription, command: SubscriptionCommand): Promise<CommandResult> {
  const tenant = tenantOf(ctx);
  let clockTime: string | null = null;
  if (sub.testClockId) {
    const clock = await dbOf(ctx).testClock.findFirst({ where: { id: sub.testClockId } });
    if (clock?.status === 'advancing') throw errors.invalidState("The subscription's test clock is advancing; retry when it is ready", 'id');
    clockTime = clock?.frozenTime.toISOString() ?? null;
  }
  const target = await workflowTarget(deps);
  try {
    return await executeSubscriptionCommand(
      target,
      { subscriptionId: sub.id, merchantId: tenant.merchantId, mode: tenant.mode, customerId: sub.customerId, status: sub.status, clockTime },
      command,
      updateIdOf(ctx),
    );
  } catch (err) {
    if (err instanceof WorkflowUpdateFailedError) throw toApiError(err);
    if (err instanceof WorkflowExecutionAlreadyStartedError) throw new SubscriptionWorkflowEnded();
    deps.log(`[${ctx.state.requestId}] subscription command failed: ${(err as Error).stack ?? String(err)}`);
    throw errors.serviceUnavailable('The subscription could not be changed right now; retry shortly');
  }
}
