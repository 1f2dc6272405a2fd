// Fault injection for the test-mode simulators: a test (or an operator trying the service in
// test mode) asks that the next call(s) of one operation for one merchant misbehave the way the
// real outside system can, and the simulator does exactly that once per planned fault:
//
//   declined        the system says no: a charge is declined (card_declined, recorded under its
//                   key like any decline), a refund fails, a claim is refused by the bank
//                   (GatewayRefusedError), a claim read says the bank cancelled the claim
//   invalid_request the system rejects the request itself (GatewayInvalidRequestError),
//                   nothing happens
//   timeout         the call takes effect but the answer is lost (GatewayUnavailableError
//                   after the effect): a retry with the same key must get the recorded answer
//   transient       the system is down: GatewayUnavailableError before anything happens
//                   (plan it `times` times for an outage that recovers)
//   duplicate       the request reaches the system twice at once (a network retry): both
//                   copies run; the idempotency key must make them one
//
// The plan lives in this process's memory (tests run the worker in-process); it is not a
// stored feature of the outside system, so it costs the normal path nothing but a map lookup.
export const FAULT_OPERATIONS = ['charge', 'refund', 'claim.create', 'claim.get'] as const;
export type FaultOperation = (typeof FAULT_OPERATIONS)[number];
export const FAULT_KINDS = ['declined', 'invalid_request', 'timeout', 'transient', 'duplicate'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface PlannedFault {
  merchantId: string;
  operation: FaultOperation;
  kind: FaultKind;
  /** How many calls misbehave (default 1); the calls after that behave normally. */
  times?: number;
}

const plans = new Map<string, FaultKind[]>();
const keyOf = (merchantId: string, operation: FaultOperation) => `${merchantId}\u0000${operation}`;

/** Plans faults for the next calls of `operation` by `merchantId` (appended to any already planned). */
export function planSimulatorFault(f: PlannedFault): void {
  const times = f.times ?? 1;
  if (!Number.isSafeInteger(times) || times < 1) throw new RangeError('times must be a positive integer');
  const key = keyOf(f.merchantId, f.operation);
  const queue = plans.get(key) ?? [];
  for (let i = 0; i < times; i++) queue.push(f.kind);
  plans.set(key, queue);
}

/** Forgets every planned fault of the merchant (or of everyone). */
export function clearSimulatorFaults(merchantId?: string): void {
  if (merchantId === undefined) plans.clear();
  else for (const k of [...plans.keys()]) if (k.startsWith(`${merchantId}\u0000`)) plans.delete(k);
}

/** How many faults are still planned for the merchant's operation. */
export function plannedFaults(merchantId: string, operation: FaultOperation): number {
  return plans.get(keyOf(merchantId, operation))?.length ?? 0;
}

/** The simulators' side: the fault this call must show, taken off the plan; null for a normal call. */
export function takeSimulatorFault(merchantId: string, operation: FaultOperation): FaultKind | null {
  if (plans.size === 0) return null;
  const key = keyOf(merchantId, operation);
  const queue = plans.get(key);
  if (!queue || queue.length === 0) return null;
  const kind = queue.shift()!;
  if (queue.length === 0) plans.delete(key);
  return kind;
}
