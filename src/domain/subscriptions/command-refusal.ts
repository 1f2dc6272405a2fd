// The allowed state changes (src/contracts/subscription-commands.ts) as API errors.
import { commandRefusal, type CommandState } from '../../contracts/subscription-commands';
import type { SubscriptionCommand } from '../../contracts/subscriptions';
import { refusalError } from '../refusals';

export { refusalError };

/** Throws the API error of the rule that refuses `cmd` for a subscription in `state`. */
export function assertCommandAllowed(state: CommandState, cmd: SubscriptionCommand): void {
  const refusal = commandRefusal(state, cmd);
  if (refusal) throw refusalError(refusal);
}
