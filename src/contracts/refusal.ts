// A refusal: a command or action the rules did not allow (nothing changed). It crosses Temporal in
// this one typed form, and is translated once on each side:
//
//   domain (ApiError)  --refusalOf-->  Refusal  --refusalFailure-->  ApplicationFailure
//   ApplicationFailure --refusalOfFailure--> Refusal --refusalError (src/domain/refusals.ts)--> ApiError
//
// On the wire the failure's `type` is the API error code, `message` its message and `details`
// `[param]` (or `[param, details]`), non-retryable. Pure: safe in workflow code.
import { ApplicationFailure } from '@temporalio/common';

/**
 * The refusal codes: error types (ApplicationFailure.type) a command can fail with; the API maps
 * each to the error code of the same name (src/errors.ts). Non-retryable for activities.
 */
export const COMMAND_ERROR_TYPES = [
  'cannot_pause',
  'cannot_uncancel',
  'not_paused',
  'invalid_state',
  'invalid_subscription',
  'invalid_price_type',
  'resource_not_found',
  'resource_missing',
  'validation_failed',
] as const;
export type CommandErrorType = (typeof COMMAND_ERROR_TYPES)[number];

export interface Refusal {
  /** The API error code of the same name (src/errors.ts). */
  code: CommandErrorType;
  message: string;
  /** The request parameter it is about, or null. */
  param: string | null;
  /** Further facts about the refusal (JSON), when there are any. */
  details?: Record<string, unknown>;
}

export function isRefusalCode(code: unknown): code is CommandErrorType {
  return typeof code === 'string' && (COMMAND_ERROR_TYPES as readonly string[]).includes(code);
}

/** The failure a workflow (an update handler or validator) throws for a refusal. */
export function refusalFailure(r: Refusal): ApplicationFailure {
  return ApplicationFailure.create({ type: r.code, message: r.message, details: r.details ? [r.param, r.details] : [r.param], nonRetryable: true });
}

/**
 * The refusal a failure carries, looked for along its cause chain (a workflow update's failure,
 * an activity's failure): null when it is not one.
 */
export function refusalOfFailure(err: unknown): Refusal | null {
  let e: unknown = err;
  for (let depth = 0; e && depth < 6; depth++) {
    if (e instanceof ApplicationFailure && isRefusalCode(e.type)) {
      const details = Array.isArray(e.details) ? e.details : [];
      const param = typeof details[0] === 'string' ? details[0] : null;
      const extra = details[1] && typeof details[1] === 'object' ? (details[1] as Record<string, unknown>) : undefined;
      return { code: e.type, message: e.message, param, ...(extra ? { details: extra } : {}) };
    }
    e = (e as { cause?: unknown }).cause;
  }
  return null;
}
