// The allowed state changes (src/contracts/subscription-commands.ts) as API errors.
import { ApiError, errors } from '../../errors';
import { commandRefusal, type CommandRefusal, type CommandState } from '../../contracts/subscription-commands';
import type { CommandErrorType, SubscriptionCommand } from '../../contracts/subscriptions';

const FACTORIES: Record<CommandErrorType, (message: string, param?: string) => ApiError> = {
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

export function refusalError(refusal: CommandRefusal): ApiError {
  return FACTORIES[refusal.code](refusal.message, refusal.param);
}

/** Throws the API error of the rule that refuses `cmd` for a subscription in `state`. */
export function assertCommandAllowed(state: CommandState, cmd: SubscriptionCommand): void {
  const refusal = commandRefusal(state, cmd);
  if (refusal) throw refusalError(refusal);
}
