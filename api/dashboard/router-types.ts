// The dashboard's router types, in a module of their own: every page imports them and
// api/dashboard/index.tsx imports every page, so they cannot live in index.tsx without an import
// circle (test/unit/architecture/layering.test.ts).
import type Router from '@koa/router';
import type { AppDeps, AppState } from '../context';

export type DashboardRouter = Router<AppState>;
export type PageRegistrar = (router: DashboardRouter, deps: AppDeps) => void;
