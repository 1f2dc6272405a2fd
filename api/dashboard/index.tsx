// The merchant dashboard (docs/dashboard.md): server-rendered pages under /dashboard, built on the
// same domain functions as the API. Mounted by createApp before the JSON body parser (forms are
// url-encoded). An API key is never accepted here (wrong_auth_method); a session cookie is never
// accepted by the API (api/middleware/auth.ts).
import Router, { type RouterMiddleware } from '@koa/router';
import type { Next } from 'koa';
import type { AppContext, AppDeps, AppState } from '../context';
import { ApiError, errors } from '../../src/errors';
import { isConnectionUnavailable } from '../../src/db/pool-errors';
import { connectionUnavailable } from '../middleware/errors';
import { readForm, setDashboardHeaders } from './http';
import { sendBare } from './render';
import { DASHBOARD_MESSAGES, pickDashboardLocale } from './i18n';
import { AuthPage } from './views/layout';
import { assetRoutes } from './pages/assets';
import { authPages } from './pages/auth';
import { homePages } from './pages/home';
import { developerPages } from './pages/developers';
import { settingsPages } from './pages/settings';
import { teamPages } from './pages/team';
import { accountPages } from './pages/account';
import { customerPages } from './pages/customers';
import { billingPages } from './pages/billing';
import { subscriptionPages } from './pages/subscriptions';
import { exportPages } from './pages/exports';

import type { DashboardRouter, PageMiddleware, PageRegistrar } from './router-types';

export type { DashboardRouter, PageRegistrar } from './router-types';

export const DASHBOARD_PAGES: PageRegistrar[] = [
  assetRoutes,
  authPages,
  homePages,
  customerPages,
  subscriptionPages,
  billingPages,
  exportPages,
  developerPages,
  settingsPages,
  teamPages,
  accountPages,
];

export function isDashboardPath(path: string): boolean {
  return path === '/dashboard' || path.startsWith('/dashboard/');
}

export function dashboardApp(deps: AppDeps) {
  const router = new Router<AppState>({ prefix: '/dashboard', strict: false });
  const asRouterMiddleware = (middleware: PageMiddleware[]) => middleware as unknown as RouterMiddleware<AppState>[];
  const pages: DashboardRouter = {
    get: (path, ...middleware) => void router.get(path, ...asRouterMiddleware(middleware)),
    post: (path, ...middleware) => void router.post(path, ...asRouterMiddleware(middleware)),
  };
  for (const register of DASHBOARD_PAGES) register(pages, deps);
  const routes = router.routes();
  const allowed = router.allowedMethods();

  // Every other request passes through a plain function (no promise of its own); pages are served by `serve`.
  return (ctx: AppContext, next: Next) => (isDashboardPath(ctx.path) ? serve(ctx) : next());

  async function serve(ctx: AppContext): Promise<void> {
    // An API key is never a way in (the error envelope, as for any API client).
    if (ctx.get('Authorization') !== '') {
      throw errors.wrongAuthMethod('Dashboard pages are used with a dashboard session (sign in at /dashboard), not with an API key.');
    }
    setDashboardHeaders(ctx);
    try {
      ctx.state.dashboardForm = await readForm(ctx);
      await routes(ctx, async () => {
        await allowed(ctx, async () => undefined);
      });
      if (ctx.status === 404 && ctx.body === undefined) {
        const lang = pickDashboardLocale(ctx);
        const t = DASHBOARD_MESSAGES[lang];
        sendBare(
          ctx,
          t.page_not_found,
          <AuthPage title={t.page_not_found}>
            <p>
              {t.page_not_found_text} <a href="/dashboard">{t.page_go_dashboard}</a>.
            </p>
          </AuthPage>,
          404,
          lang,
        );
      }
    } catch (err) {
      const e = err instanceof ApiError ? err : isConnectionUnavailable(err) ? connectionUnavailable() : null;
      if (e) for (const [k, v] of Object.entries(e.headers)) ctx.set(k, v);
      if (!e) deps.log(`[${ctx.state.requestId}] dashboard error on ${ctx.method} ${ctx.path}: ${(err as Error)?.stack ?? String(err)}`);
      const status = e?.status ?? 500;
      const lang = pickDashboardLocale(ctx);
      const t = DASHBOARD_MESSAGES[lang];
      // The API's own message (in English, as every API message) when there is one.
      const message = e?.message ?? t.page_internal;
      sendBare(
        ctx,
        e ? t.page_not_possible : t.page_error,
        <AuthPage title={status === 404 ? t.page_not_found : status === 403 ? t.page_not_allowed : t.page_went_wrong}>
          <p id="error-message" data-code={e?.code ?? 'internal_error'}>
            {message}
          </p>
          <p class="muted">
            {t.page_request_id} <span class="mono">{ctx.state.requestId}</span>
          </p>
          <p>
            <a href="/dashboard">{t.page_back}</a>
          </p>
        </AuthPage>,
        status,
        lang,
      );
    }
  }
}
