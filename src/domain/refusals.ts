// The domain's side of a refusal crossing Temporal (src/contracts/refusal.ts): an ApiError the
// rules threw becomes the typed Refusal (in an activity's result), and a Refusal the workflow
// answered becomes the ApiError of the same code (errorFromCode, src/errors.ts). Written once.
import { ApiError, errorFromCode } from '../errors';
import { isRefusalCode, type Refusal } from '../contracts/refusal';

/** The ApiError of a refusal: same code, status, message and param. */
export function refusalError(refusal: Refusal): ApiError {
  return errorFromCode(refusal.code, refusal.message, refusal.param ?? undefined);
}

/** The refusal an error is (a 4xx ApiError of a refusal code), or null for anything else. */
export function refusalOf(err: unknown): Refusal | null {
  if (err instanceof ApiError && err.status < 500 && isRefusalCode(err.code)) return { code: err.code, message: err.message, param: err.param ?? null };
  return null;
}
