// Settings: business profile (name, default currency), redirect domains, embedded-checkout
// origins, bank-invoice settings (read-only in this version), portal settings and the accounting
// connection (shown once those features exist), and going live.
import type { AppContext, AppDeps } from '../../context';
import { SUPPORTED_CURRENCIES } from '../../../src/billing/currency';
import { setRedirectDomains } from '../../../src/domain/merchant-settings/redirect-domains';
import { setAllowedOrigins } from '../../../src/domain/merchant-settings/allowed-origins';
import { updateMerchantProfile } from '../../../src/domain/merchant-settings/update-merchant-profile';
import { bankInvoiceSettings } from '../../../src/domain/merchant-settings/bank-invoice-settings';
import { markMerchantLive } from '../../../src/domain/merchants/create-merchant';
import type { Db } from '../../../src/db/client';
import { getVatSettings, updateVatSettings } from '../../../src/domain/vat/vat-settings';
import { updateVatSettingsSchema } from '../../routes/vat-settings/schemas';
import { VAT_COUNTRIES, VAT_RATE_IDS, vatRatesOf, basisPointsToPercent } from '../../../src/billing';
import { parseBody } from '../../validate';
import type { DashboardRouter } from '../index';
import { dash, requireSession, type Dashboard } from '../session';
import { field } from '../http';
import { formPost } from '../forms';
import { redirectWithNotice, sendPage } from '../render';
import { ActionButton, Csrf, Field, FormErrors, Panel, Props, Select, TextArea, when, type FormState } from '../views/ui';

type Section = 'profile' | 'domains' | 'origins' | 'live' | 'vat';

function lines(text: string): string[] {
  return text
    .split(/[\n,]+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

async function settingsPage(ctx: AppContext, d: Dashboard, failed?: { section: Section; state: FormState }) {
  const m = await d.deps.db.merchant.findUniqueOrThrow({ where: { id: d.merchant.id } });
  const st = (s: Section) => (failed?.section === s ? failed.state : undefined);
  const bank = bankInvoiceSettings();
  const vat = await getVatSettings(d.db);
  sendPage(ctx, d, {
    title: 'Settings',
    active: '/dashboard/settings',
    body: (
      <>
        <Panel title="Business" id="business">
          {d.can('manage_business') ? (
            <form method="post" action="/dashboard/settings/profile" id="profile-form">
              <Csrf token={d.csrf} />
              <FormErrors state={st('profile')} />
              <Field name="name" label="Business name" value={m.name} state={st('profile')} input={{ required: true, maxLength: 200 }} />
              <Select name="default_currency" label="Default currency" value={m.defaultCurrency} state={st('profile')} options={SUPPORTED_CURRENCIES.map((c) => [c, c])} />
              <button type="submit">Save</button>
            </form>
          ) : (
            <Props rows={[['Business name', m.name], ['Default currency', m.defaultCurrency]]} />
          )}
          <p class="muted" id="business-details-hook">
            Legal name, kennitala, VAT number and address for invoices and the customer portal are set with the customer-portal feature; this dashboard shows them here once that feature is installed.
          </p>
        </Panel>
        <Panel title="Redirect domains (hosted checkout)" id="redirect-domains">
          <p class="muted">Return and cancel URLs of hosted checkout must be on one of these domains or a subdomain. Empty: any URL (https in live mode).</p>
          {d.can('manage_developers') ? (
            <form method="post" action="/dashboard/settings/redirect-domains" id="domains-form">
              <Csrf token={d.csrf} />
              <FormErrors state={st('domains')} />
              <TextArea name="domains" label="One domain per line" value={m.redirectDomains.join('\n')} state={st('domains')} />
              <button type="submit">Save domains</button>
            </form>
          ) : (
            <p id="domains-list">{m.redirectDomains.join(', ') || 'none'}</p>
          )}
        </Panel>
        <Panel title="Embedded checkout origins" id="allowed-origins">
          <p class="muted">Web pages on these origins may create embedded payment sessions with a publishable key.</p>
          {d.can('manage_developers') ? (
            <form method="post" action="/dashboard/settings/allowed-origins" id="origins-form">
              <Csrf token={d.csrf} />
              <FormErrors state={st('origins')} />
              <TextArea name="origins" label="One origin per line (e.g. https://shop.example.is)" value={m.allowedOrigins.join('\n')} state={st('origins')} />
              <button type="submit">Save origins</button>
            </form>
          ) : (
            <p id="origins-list">{m.allowedOrigins.join(', ') || 'none'}</p>
          )}
        </Panel>
        <Panel title="Bank invoices (kröfur)" id="bank-invoice-settings">
          <Props
            rows={[
              ['Default days until due', String(bank.defaultDaysUntilDue)],
              ['Claim expires after the due date', `${bank.claimExpiryDays} days`],
              ['Claim status checked every', `${bank.claimRecheckDays} day(s)`],
            ]}
          />
          <p class="muted">These are service-wide in this version and cannot be changed per business yet.</p>
        </Panel>
        <Panel title={`VAT (${d.tenant.mode} mode)`} id="vat-settings">
          {d.can('manage_accounting') ? (
            <form method="post" action="/dashboard/settings/vat" id="vat-form">
              <Csrf token={d.csrf} />
              <FormErrors state={st('vat')} />
              <Select name="country" label="Country" value={vat.country} state={st('vat')} options={VAT_COUNTRIES.map((c) => [c, c])} />
              <Select
                name="default_vat_rate"
                label="Default VAT rate"
                value={vat.defaultVatRate}
                state={st('vat')}
                options={VAT_RATE_IDS.map((r) => [r, `${r} (${basisPointsToPercent(vatRatesOf(vat.country).find((x) => x.rate === r)?.basisPoints ?? 0)}%)`])}
              />
              <Select name="prices_include_vat" label="Prices include VAT" value={vat.pricesIncludeVat ? 'true' : 'false'} state={st('vat')} options={[['true', 'Yes'], ['false', 'No (VAT is added)']]} />
              <button type="submit">Save VAT settings</button>
            </form>
          ) : (
            <Props rows={[['Country', vat.country], ['Default rate', vat.defaultVatRate], ['Prices include VAT', vat.pricesIncludeVat ? 'yes' : 'no']]} />
          )}
          <p class="muted">Changes apply to invoices built from now on.</p>
        </Panel>
        <Panel title="Customer portal" id="portal-settings">
          <p class="muted">Not available yet: portal settings appear here once the customer-portal feature is installed.</p>
        </Panel>
        <Panel title="Accounting connection" id="accounting">
          <p class="muted">Not available yet: the accounting connection appears here once the accounting feature is installed.</p>
        </Panel>
        <Panel title="Going live" id="going-live">
          {m.liveEnabledAt ? (
            <p id="live-status">Live since {when(m.liveEnabledAt)}. Switch to live data at the top; create live keys under Developers → API keys.</p>
          ) : d.can('manage_business') ? (
            <>
              <p id="live-status">This business works in test mode only. Going live lets live keys work and real money move; it cannot be undone here.</p>
              <ActionButton action="/dashboard/settings/go-live" csrf={d.csrf} label="Go live" id="go-live" danger confirm="Turn live mode on for this business? Live keys will work and real money will move." />
              <FormErrors state={st('live')} />
            </>
          ) : (
            <p id="live-status">This business works in test mode only. An owner can turn live mode on.</p>
          )}
        </Panel>
      </>
    ),
  });
}

export function settingsPages(router: DashboardRouter, deps: AppDeps): void {
  const session = requireSession(deps);
  router.get('/settings', session, async (ctx) => settingsPage(ctx, dash(ctx)));

  router.post('/settings/profile', session, async (ctx) => {
    const d = dash(ctx);
    await formPost(
      ctx,
      d,
      {
        permission: 'manage_business',
        action: 'merchant.update',
        objectType: 'merchant',
        objectId: d.merchant.id,
        modeScoped: false,
        run: async (tx) => updateMerchantProfile(tx as unknown as Db, d.merchant.id, { name: field(d.form, 'name'), default_currency: field(d.form, 'default_currency') }),
        detail: (m) => ({ name: m.name, default_currency: m.defaultCurrency }),
      },
      { fields: ['name', 'default_currency'], success: () => redirectWithNotice(ctx, '/dashboard/settings', 'settings_saved'), failure: (state) => settingsPage(ctx, d, { section: 'profile', state }) },
    );
  });

  router.post('/settings/redirect-domains', session, async (ctx) => {
    const d = dash(ctx);
    await formPost(
      ctx,
      d,
      {
        permission: 'manage_developers',
        action: 'redirect_domains.update',
        objectType: 'merchant',
        objectId: d.merchant.id,
        modeScoped: false,
        run: async (tx) => setRedirectDomains(tx as unknown as Db, d.merchant.id, lines(field(d.form, 'domains'))),
        detail: (list) => ({ domains: list }),
      },
      { fields: ['domains'], success: () => redirectWithNotice(ctx, '/dashboard/settings', 'settings_saved'), failure: (state) => settingsPage(ctx, d, { section: 'domains', state }) },
    );
  });

  router.post('/settings/allowed-origins', session, async (ctx) => {
    const d = dash(ctx);
    await formPost(
      ctx,
      d,
      {
        permission: 'manage_developers',
        action: 'allowed_origins.update',
        objectType: 'merchant',
        objectId: d.merchant.id,
        modeScoped: false,
        run: async (tx) => setAllowedOrigins(tx as unknown as Db, d.merchant.id, lines(field(d.form, 'origins'))),
        detail: (list) => ({ origins: list }),
      },
      { fields: ['origins'], success: () => redirectWithNotice(ctx, '/dashboard/settings', 'settings_saved'), failure: (state) => settingsPage(ctx, d, { section: 'origins', state }) },
    );
  });

  router.post('/settings/vat', session, async (ctx) => {
    const d = dash(ctx);
    await formPost(
      ctx,
      d,
      {
        permission: 'manage_accounting',
        action: 'vat_settings.update',
        objectType: 'vat_settings',
        run: async (tx) => {
          const input = parseBody(updateVatSettingsSchema, { country: field(d.form, 'country'), default_vat_rate: field(d.form, 'default_vat_rate'), prices_include_vat: field(d.form, 'prices_include_vat') === 'true' });
          return updateVatSettings(tx, d.tenant, input);
        },
        detail: (v) => ({ ...v }),
      },
      { fields: ['country', 'default_vat_rate', 'prices_include_vat'], success: () => redirectWithNotice(ctx, '/dashboard/settings', 'settings_saved'), failure: (state) => settingsPage(ctx, d, { section: 'vat', state }) },
    );
  });

  router.post('/settings/go-live', session, async (ctx) => {
    const d = dash(ctx);
    await formPost(
      ctx,
      d,
      { permission: 'manage_business', action: 'merchant.go_live', objectType: 'merchant', objectId: d.merchant.id, modeScoped: false, run: async (tx) => markMerchantLive(tx as unknown as Db, d.merchant.id, new Date()) },
      { fields: [], success: () => redirectWithNotice(ctx, '/dashboard/settings', 'went_live'), failure: (state) => settingsPage(ctx, d, { section: 'live', state }) },
    );
  });
}
