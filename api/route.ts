// One declaration per route (docs/architecture.md "How to add a route"): `route({...})` names the
// method, the path, who may call it, the yup schemas it validates with, what it answers, and the
// middleware and handler that serve it. createApp registers the declarations on the Koa router and
// the OpenAPI builder (api/openapi/document.ts) reads the very same objects, so a route cannot exist
// without its contract and the document cannot name a route that does not exist.
//
// Each area declares its routes with the `route` and `area` that `areaOf(setup)` returns: `setup`
// runs once per application (with the app's deps and the authenticator) and builds what the area's
// routes share (a transaction middleware, helpers over deps); every route's `use` and `handler`
// receive it as their kit, beside `deps` and `auth`.
import type Router from '@koa/router';
import type { RouterMiddleware } from '@koa/router';
import { dbOf, type AppContext, type AppDeps, type AppState, type Middleware } from './context';
import type { Auth } from './middleware/auth';
import type { HttpMethod, RouteAuth, RouteDoc } from './openapi/describe';
import { pathId } from './validate';
import type { TenantDb } from '../src/db/tenancy';
import type { Page } from '../src/db/paging';

/** What every route's `use` and `handler` receive: the app's deps, the authenticator, and the areas registered. */
export interface RouteKit {
  deps: AppDeps;
  auth: Auth;
  /** Every area of the application (the OpenAPI route builds its document from them). */
  areas: readonly Area[];
}

/** A route served by the application router: its contract (RouteDoc) and what serves it. */
export interface ServedRoute<K> extends RouteDoc {
  outsideRouter?: false;
  /** The middleware before the handler, in order (authentication, transaction, guards). */
  use?: (kit: RouteKit & K) => Middleware[];
  /** Builds the handler once per application. */
  handler: (kit: RouteKit & K) => Middleware;
}

/** A route served by a middleware in front of the router (GET /livez …): its contract only. */
export interface OutsideRoute extends RouteDoc {
  outsideRouter: true;
}

export type RouteDeclaration<K = object> = ServedRoute<K> | OutsideRoute;

/** A resource area: the routes it declares and what they share. */
export interface Area {
  name: string;
  setup: (deps: AppDeps, auth: Auth) => object;
  routes: ReadonlyArray<RouteDeclaration<any>>;
}

/**
 * The `route` and `area` helpers of one area, typed by what its `setup` returns:
 * `const { route, area } = areaOf((deps) => ({ tx: transactional(deps) }))`.
 */
export function areaOf<K extends object>(setup: (deps: AppDeps, auth: Auth) => K) {
  return {
    /** Declares one route (a typed identity: the type checks the declaration). */
    route: (d: RouteDeclaration<K>): RouteDeclaration<K> => d,
    /** The area of these routes, in registration order (the router matches in that order). */
    area: (name: string, routes: Array<RouteDeclaration<K>>): Area => ({ name, setup, routes }),
  };
}

/** An area without shared state. */
export const { route, area } = areaOf(() => ({}));

/**
 * The `auth` and `use` of a route for secret keys: authentication, then these middleware in order,
 * each given itself or by its name in the kit (`tx`, the request transaction; `steps`, step-wise
 * requests): `...secretKey('tx')`, `...secretKey(testModeOnly, 'steps')`.
 */
export function secretKey<const A extends ReadonlyArray<string | Middleware>>(...after: A) {
  return {
    auth: 'secret' as const,
    use: (kit: RouteKit & Record<Extract<A[number], string>, Middleware>): Middleware[] => [
      kit.auth(),
      ...after.map((m) => (typeof m === 'string' ? (kit as Record<string, Middleware>)[m]! : m)),
    ],
  };
}

/** The handler of a GET that answers one object by the id in its path. */
export function retrieveById<T>(find: (db: TenantDb, id: string) => Promise<T>, present: (row: T) => unknown): () => Middleware {
  return () => async (ctx: AppContext) => {
    ctx.body = present(await find(dbOf(ctx), pathId(ctx.params.id)));
  };
}

/** The handler of a GET that answers one page of a list: `load` parses the query and reads the page. */
export function answerPage<T>(load: (ctx: AppContext) => Promise<Page<T>>, present: (row: T, index: number) => unknown): () => Middleware {
  return () => async (ctx: AppContext) => {
    const page = await load(ctx);
    ctx.body = { data: page.data.map(present), has_more: page.hasMore };
  };
}

/** Every route declaration of the areas, in registration order. */
export function declarationsOf(areas: readonly Area[]): RouteDeclaration<any>[] {
  return areas.flatMap((a) => a.routes);
}

/** The method and path of every route declared with this auth kind, in registration order. */
export function routesWithAuth(areas: readonly Area[], auth: RouteAuth): Array<[method: HttpMethod, path: string]> {
  return declarationsOf(areas)
    .filter((d) => d.auth === auth)
    .map((d) => [d.method, d.path]);
}

/** Registers the areas' routes on the router, in order. */
export function registerAreas(router: Router<AppState>, areas: readonly Area[], deps: AppDeps, auth: Auth): void {
  for (const a of areas) {
    const kit = { ...a.setup(deps, auth), deps, auth, areas };
    for (const d of a.routes) {
      if (d.outsideRouter) continue;
      const chain = [...(d.use?.(kit) ?? []), d.handler(kit)] as unknown as RouterMiddleware<AppState>[];
      router[d.method](d.path, ...chain);
    }
  }
}
