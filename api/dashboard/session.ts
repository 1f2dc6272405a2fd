// Who is signed in, and may they do this. Every dashboard page but sign-in and invitations goes
// through requireSession; every state change through checkCsrf and act() (./actions.ts), which
// checks the role on the server whatever the page showed.
import { DASHBOARD_MESSAGES, pickDashboardLocale, type DashboardLocale, type DashboardMessages } from './i18n';
import type { Next } from 'koa';
import type { AppContext, AppDeps } from '../context';
import { errors } from '../../src/errors';
import { scopedDb, type ScopedDb, type Tenant } from '../../src/db/tenancy';
import type { DashboardUser, Merchant } from '../../src/generated/prisma/client';
import { findActiveSession, tokensEqual, type ActiveSession, type SessionPolicy } from '../../src/domain/dashboard-users/sessions';
import { roleAllows, type Permission } from '../../src/domain/dashboard-users/roles';
import { clientIp, field, sessionToken, userAgent, type FormBody } from './http';

export interface Dashboard {
  deps: AppDeps;
  session: ActiveSession;
  user: DashboardUser;
  merchant: Merchant;
  /** The merchant and the mode the session shows. */
  tenant: Tenant;
  db: ScopedDb;
  csrf: string;
  ip: string;
  userAgent: string | null;
  form: FormBody;
  can(permission: Permission): boolean;
  /** The page language (./i18n.ts) and its texts. */
  locale: DashboardLocale;
  t: DashboardMessages;
}

declare module '../context' {
  interface AppState {
    dashboard?: Dashboard;
    dashboardForm?: FormBody;
  }
}

export function sessionPolicy(deps: AppDeps): SessionPolicy {
  return { lifetimeMs: deps.config.dashboardSessionHours * 3600_000, idleMs: deps.config.dashboardIdleMinutes * 60_000 };
}

/** The signed-in dashboard of the request (after requireSession). */
export function dash(ctx: AppContext): Dashboard {
  const d = ctx.state.dashboard;
  if (!d) throw new Error('dashboard page used without requireSession');
  return d;
}

/** Resolves the session cookie to a session, or null. Also used by the dashboard-only JSON routes. */
export async function loadDashboard(ctx: AppContext, deps: AppDeps): Promise<Dashboard | null> {
  const token = sessionToken(ctx);
  if (!token) return null;
  const session = await findActiveSession(deps.db, token, new Date(), sessionPolicy(deps));
  if (!session) return null;
  const merchant = await deps.db.merchant.findUnique({ where: { id: session.merchantId } });
  if (!merchant) return null;
  // Live data only once the merchant is live, whatever the session last chose.
  const mode = session.viewMode === 'live' && merchant.liveEnabledAt ? 'live' : 'test';
  const tenant: Tenant = { merchantId: merchant.id, mode };
  const locale = pickDashboardLocale(ctx);
  return {
    deps,
    session,
    user: session.user,
    merchant,
    tenant,
    db: scopedDb(deps.db, tenant),
    csrf: session.csrfToken,
    ip: clientIp(ctx),
    userAgent: userAgent(ctx),
    form: ctx.state.dashboardForm ?? {},
    can: (p) => roleAllows(session.user.role, p),
    locale,
    t: DASHBOARD_MESSAGES[locale],
  };
}

export function requireSession(deps: AppDeps, opts: { allowSecondFactorPending?: boolean } = {}) {
  return async (ctx: AppContext, next: Next) => {
    const d = await loadDashboard(ctx, deps);
    if (!d) {
      if (ctx.method === 'GET') {
        const next = ctx.originalUrl.startsWith('/dashboard') ? ctx.originalUrl : '/dashboard';
        ctx.redirect(`/dashboard/sign-in?next=${encodeURIComponent(next)}`);
        return;
      }
      ctx.redirect('/dashboard/sign-in?expired=1');
      ctx.status = 303;
      return;
    }
    if (d.session.secondFactorPending && !opts.allowSecondFactorPending) {
      ctx.redirect('/dashboard/sign-in/two-step');
      if (ctx.method !== 'GET') ctx.status = 303;
      return;
    }
    ctx.state.dashboard = d;
    await next();
  };
}

/** Every state change carries the session's CSRF token: `_csrf` in forms, X-CSRF-Token in JSON calls. */
export function csrfValid(ctx: AppContext, d: Dashboard): boolean {
  const given = ctx.get('X-CSRF-Token') || field(d.form, '_csrf');
  return given !== '' && tokensEqual(given, d.csrf);
}

export function assertPermission(d: Dashboard, permission: Permission): void {
  if (!d.can(permission)) {
    throw errors.roleNotAllowed(`Your role (${d.user.role.replace('_', '-')}) does not allow this action; ask an owner.`);
  }
}
