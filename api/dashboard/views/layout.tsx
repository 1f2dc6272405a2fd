// The page frame: navigation (side on a laptop, top on a phone), the test/live switch, who is
// signed in, and sign-out. Links a role cannot use are still shown (reading is allowed to every
// role); the buttons of actions it cannot take are not.
import type { ComponentChildren } from 'preact';
import { render } from 'preact-render-to-string';
import type { Dashboard } from '../session';
import { ROLE_LABELS } from '../../../src/domain/dashboard-users/roles';
import { Csrf } from './ui';

export const ASSET_VERSION = '4';

const NAV: Array<{ group?: string; href: string; label: string; owner?: boolean }> = [
  { href: '/dashboard', label: 'Home' },
  { group: 'Billing', href: '/dashboard/customers', label: 'Customers' },
  { href: '/dashboard/subscriptions', label: 'Subscriptions' },
  { href: '/dashboard/invoices', label: 'Invoices' },
  { href: '/dashboard/credit-notes', label: 'Credit notes' },
  { href: '/dashboard/payments', label: 'Payments' },
  { href: '/dashboard/refunds', label: 'Refunds' },
  { href: '/dashboard/usage', label: 'Usage' },
  { href: '/dashboard/exports', label: 'Exports' },
  { group: 'Developers', href: '/dashboard/developers/api-keys', label: 'API keys' },
  { href: '/dashboard/developers/webhooks', label: 'Webhooks' },
  { href: '/dashboard/developers/deliveries', label: 'Deliveries' },
  { href: '/dashboard/developers/events', label: 'Events' },
  { group: 'Account', href: '/dashboard/settings', label: 'Settings' },
  { href: '/dashboard/team', label: 'Team' },
  { href: '/dashboard/audit', label: 'Audit log', owner: true },
  { href: '/dashboard/account', label: 'Your account' },
];

export function documentHtml(opts: { title: string; body: ComponentChildren; charts?: boolean }): string {
  const charts = opts.charts ? `<script src="/dashboard/assets/chart.umd.js?v=${ASSET_VERSION}" defer></script>\n` : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeText(opts.title)} · Billing dashboard</title>
<link rel="stylesheet" href="/dashboard/assets/dashboard.css?v=${ASSET_VERSION}">
${charts}<script src="/dashboard/assets/dashboard.js?v=${ASSET_VERSION}" defer></script>
</head>
<body>
${render(<>{opts.body}</>)}
</body>
</html>
`;
}

function escapeText(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
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
  return (
    <>
      <a class="skip" href="#content">
        Skip to content
      </a>
      <div class="shell">
        <aside class="side">
          <div class="brand">Billing</div>
          <div class="merchant" id="merchant-name">
            {d.merchant.name}
          </div>
          <details class="menu" open>
            <summary>Menu</summary>
            <nav aria-label="Dashboard">
              <ul>
                {NAV.filter((n) => !n.owner || d.can('manage_team')).map((n) => (
                  <>
                    {n.group ? (
                      <li class="group" aria-hidden="true">
                        {n.group}
                      </li>
                    ) : null}
                    <li>
                      <a href={n.href} aria-current={n.href === active ? 'page' : undefined}>
                        {n.label}
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
                  Data mode
                </label>
                <select id="mode-switch" name="mode">
                  <option value="test" selected={!live}>
                    Test data
                  </option>
                  <option value="live" selected={live} disabled={!d.merchant.liveEnabledAt}>
                    Live data{d.merchant.liveEnabledAt ? '' : ' (not live yet)'}
                  </option>
                </select>{' '}
                <button type="submit" class="secondary">
                  Switch
                </button>
              </form>
              <span>
                <span id="user-email">{d.user.email}</span> · <span id="user-role">{ROLE_LABELS[d.user.role]}</span>
              </span>
              <form method="post" action="/dashboard/sign-out" class="inline">
                <Csrf token={d.csrf} />
                <button type="submit" class="secondary" id="sign-out">
                  Sign out
                </button>
              </form>
            </div>
          </div>
          {live ? null : (
            <div class="mode-test-banner" id="mode-banner">
              <span class="badge test">Test mode</span> You are looking at test data. Nothing here moves real money.
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
