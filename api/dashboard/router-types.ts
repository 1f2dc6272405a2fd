// The dashboard's router types, in a module of their own: every page imports them and
// api/dashboard/index.tsx imports every page, so they cannot live in index.tsx without an import
// circle (test/unit/architecture/layering.test.ts).
//
// Pages register plain `(ctx: AppContext, next)` middleware. The registrar is a narrow interface
// rather than @koa/router's generic `Router<AppState>`: checking a page's middleware against the
// router's overloads made tsc infer a context type per call, and whether that inference was
// accepted depended on the order tsc read the files in (the same code failed or passed as the
// `include` list or the merged files changed). index.tsx adapts it to the real router once, as
// api/route.ts's registerAreas does for the API's routes.
import type { Next } from 'koa';
import type { AppContext, AppDeps } from '../context';

export type PageMiddleware = (ctx: AppContext, next: Next) => unknown;

export interface DashboardRouter {
  get(path: string, ...middleware: PageMiddleware[]): void;
  post(path: string, ...middleware: PageMiddleware[]): void;
}

export type PageRegistrar = (router: DashboardRouter, deps: AppDeps) => void;
