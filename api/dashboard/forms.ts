// The POST side of a page: run the action (./actions.ts), then either redirect/render the result
// or re-render the page with the API error beside the field it names (status = the error's).
import type { AppContext } from '../context';
import { ApiError } from '../../src/errors';
import { act, type ActionSpec } from './actions';
import { formStateFrom } from './render';
import type { Dashboard } from './session';
import type { FormState } from './views/ui';

const REFUSALS = new Set(['role_not_allowed', 'csrf_token_invalid', 'resource_missing']);

/** Errors shown on the error page rather than beside a field: refusals, unknown objects, outages. */
export function isRefusal(err: unknown): boolean {
  return !(err instanceof ApiError) || REFUSALS.has(err.code) || err.status >= 500;
}

export async function formPost<T>(
  ctx: AppContext,
  d: Dashboard,
  spec: ActionSpec<T>,
  handlers: { fields: readonly string[]; success: (result: T) => void | Promise<void>; failure: (state: FormState) => Promise<void> },
): Promise<void> {
  let result: T;
  try {
    result = await act(ctx, d, spec);
  } catch (err) {
    // Refusals (role, CSRF) and outages get the error page; a domain error goes beside its field.
    if (isRefusal(err)) throw err;
    const state = formStateFrom(err as ApiError, d.form, handlers.fields);
    await handlers.failure(state);
    ctx.status = (err as ApiError).status;
    return;
  }
  await handlers.success(result);
}
