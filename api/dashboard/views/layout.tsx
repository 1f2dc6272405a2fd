// The page frame: navigation (side on a laptop, top on a phone), the test/live switch, who is
// signed in, and sign-out. Links a role cannot use are still shown (reading is allowed to every
// role); the buttons of actions it cannot take are not.
import type { ComponentChildren } from 'preact';
import { render } from 'preact-render-to-string';
import escapeHtml from 'escape-html';
import type { Dashboard } from '../session';
import type { DashboardLocale, DashboardMessages } from '../i18n';
import { Csrf, roleWord } from './ui';

export const ASSET_VERSION = '5';

const NAV: Array<{ group?: keyof DashboardMessages; href: string; label: keyof DashboardMessages; owner?: boolean }> = [
  { href: '/dashboard', label: 'nav_home' },
  { group: 'group_billing', href: '/dashboard/customers', label: 'nav_customers' },
  { href: '/dashboard/subscriptions', label: 'nav_subscriptions' },
  { href: '/dashboard/invoices', label: 'nav_invoices' },
  { href: '/dashboard/credit-notes', label: 'nav_credit_notes' },
  { href: '/dashboard/payments', label: 'nav_payments' },
  { href: '/dashboard/refunds', label: 'nav_refunds' },
  { href: '/dashboard/usage', label: 'nav_usage' },
  { href: '/dashboard/exports', label: 'nav_exports' },
  { group: 'group_developers', href: '/dashboard/developers/api-keys', label: 'nav_api_keys' },
  { href: '/dashboard/developers/webhooks', label: 'nav_webhooks' },
  { href: '/dashboard/developers/deliveries', label: 'nav_deliveries' },
  { href: '/dashboard/developers/events', label: 'nav_events' },
  { group: 'group_account', href: '/dashboard/settings', label: 'nav_settings' },
  { href: '/dashboard/team', label: 'nav_team' },
  { href: '/dashboard/audit', label: 'nav_audit', owner: true },
  { href: '/dashboard/account', label: 'nav_account' },
];

export function documentHtml(opts: { title: string; body: ComponentChildren; charts?: boolean; lang?: DashboardLocale; suffix?: string }): string {
  const charts = opts.charts ? `<script src="/dashboard/assets/chart.umd.js?v=${ASSET_VERSION}" defer></script>\n` : '';
  return `<!doctype html>
<html lang="${opts.lang ?? 'en'}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(opts.title)} · ${escapeHtml(opts.suffix ?? 'Billing dashboard')}</title>
<link rel="stylesheet" href="/dashboard/assets/dashboard.css?v=${ASSET_VERSION}">
${charts}<script src="/dashboard/assets/dashboard.js?v=${ASSET_VERSION}" defer></script>
</head>
<body>
${render(<>{opts.body}</>)}
</body>
</html>
`;
}

export interface PageProps {
  d: Dashboard;
  title: string;
  /** The nav entry to mark current. */
  active: string;
  notice?: string | null;
  children: ComponentChildren;
}

export function Page({ d, title, active, notice, children }: PageProps) {
  const live = d.tenant.mode === 'live';
  const t = d.t;
  const other = d.locale === 'is' ? 'en' : 'is';
  return (
    <>
      <a class="skip" href="#content">
        {t.skip}
      </a>
      <div class="shell">
        <aside class="side">
          <div class="brand">Billing</div>
          <div class="merchant" id="merchant-name">
            {d.merchant.name}
          </div>
          <details class="menu" open>
            <summary>{t.menu}</summary>
            <nav aria-label={t.nav_label}>
              <ul>
                {NAV.filter((n) => !n.owner || d.can('manage_team')).map((n) => (
                  <>
                    {n.group ? (
                      <li class="group" aria-hidden="true">
                        {t[n.group]}
                      </li>
                    ) : null}
                    <li>
                      <a href={n.href} aria-current={n.href === active ? 'page' : undefined}>
                        {t[n.label]}
                      </a>
                    </li>
                  </>
                ))}
              </ul>
            </nav>
          </details>
        </aside>
        <main class="main" id="content">
          <div class="topbar">
            <h1>{title}</h1>
            <div class="who">
              <form method="post" action="/dashboard/mode" class="inline">
                <Csrf token={d.csrf} />
                <input type="hidden" name="next" value={active} />
                <label for="mode-switch" class="skip">
                  {t.data_mode}
                </label>
                <select id="mode-switch" name="mode">
                  <option value="test" selected={!live}>
                    {t.test_data}
                  </option>
                  <option value="live" selected={live} disabled={!d.merchant.liveEnabledAt}>
                    {t.live_data}
                    {d.merchant.liveEnabledAt ? '' : t.not_live_yet}
                  </option>
                </select>{' '}
                <button type="submit" class="secondary">
                  {t.switch}
                </button>
              </form>
              <span>
                <span id="user-email">{d.user.email}</span> ·{' '}
                <span id="user-role" data-role={d.user.role}>
                  {roleWord(d.user.role, t)}
                </span>
              </span>
              <a href={`?lang=${other}`} id="lang-switch" lang={other} hreflang={other}>
                {t.other_language}
              </a>
              <form method="post" action="/dashboard/sign-out" class="inline">
                <Csrf token={d.csrf} />
                <button type="submit" class="secondary" id="sign-out">
                  {t.sign_out}
                </button>
              </form>
            </div>
          </div>
          {live ? null : (
            <div class="mode-test-banner" id="mode-banner">
              <span class="badge test">{t.test_mode}</span> {t.test_banner}
            </div>
          )}
          {notice ? (
            <div class="notice" role="status" id="notice">
              {notice}
            </div>
          ) : null}
          {children}
        </main>
      </div>
    </>
  );
}

/** Sign-in, two-step and invitation pages: no navigation, no session. */
export function AuthPage({ title, children }: { title: string; children: ComponentChildren }) {
  return (
    <main class="auth-page" id="content">
      <h1>{title}</h1>
      <div class="panel">{children}</div>
    </main>
  );
}
