// The input-safety layer: every query string, JSON body and path id passes it before any route
// (and before authentication: the checks are linear in input the body limit already bounds,
// and cheaper than a key lookup). The rules are in src/validation/input-limits.ts and
// docs/errors.md "Input limits". Routes keep their own schemas for meaning; this layer only
// makes a class of hostile input impossible on every route at once, new ones included.
import type Router from '@koa/router';
import { errors } from '../../src/errors';
import { findBodyProblem, findQueryProblem, isWellFormedId } from '../../src/validation/input-limits';
import { excerpt } from '../../src/validation/text';
import type { AppContext, AppState, Middleware } from '../context';

/** Query and body (parsed by jsonBody, which must run first): the first problem is a 400 validation_failed naming its param. */
export function inputSafety(): Middleware {
  // A plain function (its errors are thrown synchronously; koa-compose turns them into rejections).
  return (ctx, next) => {
    if (ctx.querystring !== '') {
      const problem = findQueryProblem(ctx.query as Record<string, unknown>);
      if (problem) throw errors.validationFailed(problem.message, problem.param || undefined);
    }
    const problem = findBodyProblem(ctx.state.body);
    if (problem) throw errors.validationFailed(problem.message, problem.param || undefined);
    return next();
  };
}

interface LayerLike {
  path: string | RegExp;
  paramNames: Array<{ name: string | number }>;
  param(name: string, fn: (value: string, ctx: AppContext, next: () => Promise<unknown>) => unknown): unknown;
}

/**
 * Path ids of every API route (paths under /v1/) registered so far: a value that is not a
 * well-formed id (1–255 of A–Z a–z 0–9 _ -, after percent-decoding) names nothing that can
 * exist, so it is answered as an unknown id (404 resource_missing, param = the path
 * parameter's name) before the route runs. Call after every route is registered. Pages outside
 * /v1/ (checkout) render their own not-found page and are left to do so.
 */
export function guardPathIds(router: Router<AppState>): void {
  const handlers = new Map<string, (value: string, ctx: AppContext, next: () => Promise<unknown>) => unknown>();
  // One handler per parameter name: the router skips a handler it has already run for a request.
  const handlerFor = (name: string) => {
    let h = handlers.get(name);
    if (!h) {
      h = (value, _ctx, next) => {
        if (!isWellFormedId(value)) throw errors.resourceMissing(`No such object: '${excerpt(value ?? '')}'`, name);
        return next();
      };
      handlers.set(name, h);
    }
    return h;
  };
  for (const layer of router.stack as unknown as LayerLike[]) {
    if (typeof layer.path !== 'string' || !layer.path.startsWith('/v1/')) continue;
    for (const p of layer.paramNames) layer.param(String(p.name), handlerFor(String(p.name)));
  }
}
