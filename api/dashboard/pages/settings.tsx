// Settings: business profile (name, default currency), business details printed on invoices,
// customer-portal settings, the accounting connection (./settings-accounting.tsx), redirect
// domains, embedded-checkout origins, bank-invoice settings (read-only in this version), VAT and
// going live. Every form goes through one helper (`post`): the action, then the page again with
// the API's message beside the field its param names.
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
import type { DashboardRouter } from '../router-types';
import { dash, requireSession, type Dashboard } from '../session';
import { field } from '../http';
import { formPost } from '../forms';
import { merchantAction } from '../actions';
import { redirectWithNotice, sendPage } from '../render';
import { ActionButton, Checkbox, Csrf, Field, FormErrors, Panel, Props, Select, TextArea, when, type FormState } from '../views/ui';
import type { Section, SettingsPost } from './settings-form';
import { BUSINESS_DETAIL_PARAMS, getBusinessDetails, updateBusinessDetails, type BusinessDetails, type BusinessDetailsPatch } from '../../../src/domain/merchants/business-details';
import { PORTAL_SETTING_PARAMS, getPortalSettings, updatePortalSettings, type PortalSettings } from '../../../src/domain/customer-portals/portal-settings';
import { AccountingPanelBody, accountingSettingsRoutes, loadAccountingView } from './settings-accounting';
import { AccountingMappingForm, accountingMappingRoute } from './settings-accounting-mapping';

interface PageExtra {
  failed?: { section: Section; state: FormState };
  authorizeUrl?: string;
}

function lines(text: string): string[] {
  return text
    .split(/[\n,]+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

const BUSINESS_FIELDS: Array<[keyof BusinessDetails, string, { maxLength: number; autocomplete?: string; inputmode?: 'numeric' }]> = [
  ['legalName', 'Legal name', { maxLength: 200 }],
  ['kennitala', 'Kennitala', { maxLength: 11, inputmode: 'numeric' }],
  ['vatNumber', 'VAT number (VSK-númer)', { maxLength: 40 }],
  ['addressLine1', 'Address', { maxLength: 200, autocomplete: 'address-line1' }],
  ['addressLine2', 'Address, second line', { maxLength: 200, autocomplete: 'address-line2' }],
  ['postalCode', 'Postal code', { maxLength: 20, autocomplete: 'postal-code' }],
  ['city', 'City', { maxLength: 100, autocomplete: 'address-level2' }],
  ['country', 'Country (two letters, e.g. IS)', { maxLength: 2, autocomplete: 'country' }],
  ['supportEmail', 'Support e-mail', { maxLength: 254, autocomplete: 'email' }],
];

const PORTAL_SWITCHES: Array<[Exclude<keyof PortalSettings, 'returnUrl'>, string]> = [
  ['allowCancel', 'Cancel a subscription at period end (and undo it)'],
  ['allowUpdatePaymentMethods', 'Add and remove cards, choose the default'],
  ['allowUpdateBillingDetails', 'Change their e-mail, billing address and VAT number'],
  ['allowPayInvoices', 'Pay an open invoice now'],
  ['showInvoiceHistory', 'See invoices and credit notes with their documents'],
];

async function settingsPage(ctx: AppContext, d: Dashboard, extra: PageExtra = {}) {
  const [m, business, portal, vat, accounting] = await Promise.all([
    d.deps.db.merchant.findUniqueOrThrow({ where: { id: d.merchant.id } }),
    getBusinessDetails(d.deps.db, d.merchant.id),
    getPortalSettings(d.deps.db, d.merchant.id),
    getVatSettings(d.db),
    loadAccountingView(d),
  ]);
  const st = (s: Section) => (extra.failed?.section === s ? extra.failed.state : undefined);
  const bank = bankInvoiceSettings();
  const owner = d.can('manage_business');
  sendPage(ctx, d, {
    title: 'Settings',
    active: '/dashboard/settings',
    body: (
      <>
        <nav class="toc" aria-label="Settings sections">
          {[
            ['business', 'Business'],
            ['business-details', 'Details on invoices'],
            ['portal-settings', 'Customer portal'],
            ['accounting', 'Accounting'],
            ['redirect-domains', 'Redirect domains'],
            ['allowed-origins', 'Checkout origins'],
            ['bank-invoice-settings', 'Bank invoices'],
            ['vat-settings', 'VAT'],
            ['going-live', 'Going live'],
          ].map(([id, label]) => (
            <a href={`#${id}`}>{label}</a>
          ))}
        </nav>
        <Panel title="Business" id="business">
          {owner ? (
            <form method="post" action="/dashboard/settings/profile" id="profile-form">
              <Csrf token={d.csrf} />
              <FormErrors state={st('profile')} />
              <Field name="name" label="Business name" value={m.name} state={st('profile')} input={{ required: true, maxLength: 200 }} />
              <Select name="default_currency" label="Default currency" value={m.defaultCurrency} state={st('profile')} options={SUPPORTED_CURRENCIES.map((c) => [c, c])} />
              <button type="submit">Save</button>
            </form>
          ) : (
            <Props
              rows={[
                ['Business name', m.name],
                ['Default currency', m.defaultCurrency],
              ]}
            />
          )}
        </Panel>
        <Panel title="Business details on invoices" id="business-details">
          <p class="muted">
            Printed as the seller on invoice and credit note documents and shown in the customer portal (the same in test and live mode). Empty: the business name only.
          </p>
          {owner ? (
            <form method="post" action="/dashboard/settings/business-details" id="business-details-form" class="grid-form">
              <Csrf token={d.csrf} />
              <FormErrors state={st('business')} />
              {BUSINESS_FIELDS.map(([key, label, input]) => (
                <Field
                  name={BUSINESS_DETAIL_PARAMS[key]}
                  label={label}
                  value={business[key]}
                  state={st('business')}
                  type={key === 'supportEmail' ? 'email' : 'text'}
                  input={input}
                />
              ))}
              <button type="submit" id="business-details-save">
                Save details
              </button>
            </form>
          ) : (
            <Props rows={BUSINESS_FIELDS.map(([key, label]) => [label, business[key]])} />
          )}
        </Panel>
        <Panel title="Customer portal" id="portal-settings">
          <p class="muted">What customers may do in the portal (the same in test and live mode). Pausing is never offered there.</p>
          {owner ? (
            <form method="post" action="/dashboard/settings/portal" id="portal-form">
              <Csrf token={d.csrf} />
              <FormErrors state={st('portal')} />
              <fieldset>
                <legend>In the portal, customers may</legend>
                {PORTAL_SWITCHES.map(([key, label]) => (
                  <Checkbox name={PORTAL_SETTING_PARAMS[key]} label={label} checked={portal[key]} state={st('portal')} />
                ))}
              </fieldset>
              <Field
                name="return_url"
                label="Return link (“Back to …”), empty for none"
                type="url"
                value={portal.returnUrl}
                state={st('portal')}
                input={{ maxLength: 2048, placeholder: 'https://shop.example.is/account' }}
              />
              <button type="submit" id="portal-save">
                Save portal settings
              </button>
            </form>
          ) : (
            <Props
              rows={[
                ...PORTAL_SWITCHES.map(([key, label]): [string, string] => [`Customers may: ${label.toLowerCase()}`, portal[key] ? 'yes' : 'no']),
                ['Return link', portal.returnUrl ?? 'none'],
              ]}
            />
          )}
        </Panel>
        <Panel title={`Accounting connection (${d.tenant.mode} mode)`} id="accounting">
          <AccountingPanelBody d={d} view={accounting} state={st('accounting')} authorizeUrl={extra.authorizeUrl} />
          {accounting.progress?.link.status === 'active' ? <AccountingMappingForm d={d} link={accounting.progress.link} state={st('accounting')} /> : null}
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
              <Select
                name="prices_include_vat"
                label="Prices include VAT"
                value={vat.pricesIncludeVat ? 'true' : 'false'}
                state={st('vat')}
                options={[
                  ['true', 'Yes'],
                  ['false', 'No (VAT is added)'],
                ]}
              />
              <button type="submit">Save VAT settings</button>
            </form>
          ) : (
            <Props
              rows={[
                ['Country', vat.country],
                ['Default rate', vat.defaultVatRate],
                ['Prices include VAT', vat.pricesIncludeVat ? 'yes' : 'no'],
              ]}
            />
          )}
          <p class="muted">Changes apply to invoices built from now on.</p>
        </Panel>
        <Panel title="Going live" id="going-live">
          {m.liveEnabledAt ? (
            <p id="live-status">Live since {when(m.liveEnabledAt)}. Switch to live data at the top; create live keys under Developers → API keys.</p>
          ) : owner ? (
            <>
              <p id="live-status">This business works in test mode only. Going live lets live keys work and real money move; it cannot be undone here.</p>
              <ActionButton
                action="/dashboard/settings/go-live"
                csrf={d.csrf}
                label="Go live"
                id="go-live"
                danger
                confirm="Turn live mode on for this business? Live keys will work and real money will move."
              />
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

/** A business-details or portal patch from the form: every field the form has, by its API name. */
function patchFrom<K extends string>(form: Dashboard['form'], params: Record<K, string>, read: (raw: string | undefined) => unknown): Partial<Record<K, unknown>> {
  const out: Partial<Record<K, unknown>> = {};
  for (const [key, param] of Object.entries(params) as Array<[K, string]>) out[key] = read(form[param] === undefined ? undefined : field(form, param));
  return out;
}

export function settingsPages(router: DashboardRouter, deps: AppDeps): void {
  const session = requireSession(deps);
  router.get('/settings', session, async (ctx) => settingsPage(ctx, dash(ctx)));

  const post: SettingsPost = (path, section, fields, specOf) => {
    router.post(path, session, async (ctx) => {
      const d = dash(ctx);
      const spec = specOf(d, ctx);
      await formPost(ctx, d, spec, {
        fields,
        success: async (r) => (spec.success ? spec.success(ctx, r) : redirectWithNotice(ctx, '/dashboard/settings', spec.notice ?? 'settings_saved')),
        failure: (state) => settingsPage(ctx, d, { failed: { section, state } }),
      });
    });
  };

  post('/settings/profile', 'profile', ['name', 'default_currency'], (d) => ({
    ...merchantAction(d, 'manage_business', 'merchant.update'),
    run: async (tx) => updateMerchantProfile(tx as unknown as Db, d.merchant.id, { name: field(d.form, 'name'), default_currency: field(d.form, 'default_currency') }),
    detail: (m) => ({ name: m.name, default_currency: m.defaultCurrency }),
  }));

  post('/settings/business-details', 'business', Object.values(BUSINESS_DETAIL_PARAMS), (d) => ({
    ...merchantAction(d, 'manage_business', 'business_details.update'),
    run: async (tx) => updateBusinessDetails(tx as unknown as Db, d.merchant.id, patchFrom(d.form, BUSINESS_DETAIL_PARAMS, (v) => v) as BusinessDetailsPatch),
    detail: (b) => ({ legal_name: b.legalName, kennitala: b.kennitala, vat_number: b.vatNumber }),
  }));

  post('/settings/portal', 'portal', Object.values(PORTAL_SETTING_PARAMS), (d) => ({
    ...merchantAction(d, 'manage_business', 'portal_settings.update'),
    run: async (tx) => {
      const patch = patchFrom(d.form, PORTAL_SETTING_PARAMS, (v) => v === 'true') as Partial<PortalSettings>;
      patch.returnUrl = field(d.form, 'return_url');
      return updatePortalSettings(tx as unknown as Db, d.merchant.id, patch);
    },
    detail: (p) => ({ ...p }),
  }));

  post('/settings/redirect-domains', 'domains', ['domains'], (d) => ({
    ...merchantAction(d, 'manage_developers', 'redirect_domains.update'),
    run: async (tx) => setRedirectDomains(tx as unknown as Db, d.merchant.id, lines(field(d.form, 'domains'))),
    detail: (list) => ({ domains: list }),
  }));

  post('/settings/allowed-origins', 'origins', ['origins'], (d) => ({
    ...merchantAction(d, 'manage_developers', 'allowed_origins.update'),
    run: async (tx) => setAllowedOrigins(tx as unknown as Db, d.merchant.id, lines(field(d.form, 'origins'))),
    detail: (list) => ({ origins: list }),
  }));

  post('/settings/vat', 'vat', ['country', 'default_vat_rate', 'prices_include_vat'], (d) => ({
    permission: 'manage_accounting',
    action: 'vat_settings.update',
    objectType: 'vat_settings',
    run: async (tx) => {
      const input = parseBody(updateVatSettingsSchema, {
        country: field(d.form, 'country'),
        default_vat_rate: field(d.form, 'default_vat_rate'),
        prices_include_vat: field(d.form, 'prices_include_vat') === 'true',
      });
      return updateVatSettings(tx, d.tenant, input);
    },
    detail: (v) => ({ ...v }),
  }));

  post('/settings/go-live', 'live', [], (d) => ({
    ...merchantAction(d, 'manage_business', 'merchant.go_live'),
    run: async (tx) => markMerchantLive(tx as unknown as Db, d.merchant.id, new Date()),
    notice: 'went_live',
  }));

  accountingSettingsRoutes(router, deps, session, post, (ctx, d, extra) => settingsPage(ctx, d, extra));
  accountingMappingRoute(deps, post);
}
