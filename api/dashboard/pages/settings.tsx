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
import { fillText, type DashboardMessages } from '../i18n';
import { localState } from './l10n-settings';
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

const BUSINESS_FIELDS: Array<[keyof BusinessDetails, keyof DashboardMessages, { maxLength: number; autocomplete?: string; inputmode?: 'numeric' }]> = [
  ['legalName', 'set_f_legal_name', { maxLength: 200 }],
  ['kennitala', 'set_f_kennitala', { maxLength: 11, inputmode: 'numeric' }],
  ['vatNumber', 'set_f_vat_number', { maxLength: 40 }],
  ['addressLine1', 'set_f_address1', { maxLength: 200, autocomplete: 'address-line1' }],
  ['addressLine2', 'set_f_address2', { maxLength: 200, autocomplete: 'address-line2' }],
  ['postalCode', 'set_f_postal_code', { maxLength: 20, autocomplete: 'postal-code' }],
  ['city', 'set_f_city', { maxLength: 100, autocomplete: 'address-level2' }],
  ['country', 'set_f_country', { maxLength: 2, autocomplete: 'country' }],
  ['supportEmail', 'set_f_support_email', { maxLength: 254, autocomplete: 'email' }],
];

const PORTAL_SWITCHES: Array<[Exclude<keyof PortalSettings, 'returnUrl'>, keyof DashboardMessages]> = [
  ['allowCancel', 'set_portal_cancel'],
  ['allowUpdatePaymentMethods', 'set_portal_cards'],
  ['allowUpdateBillingDetails', 'set_portal_details'],
  ['allowPayInvoices', 'set_portal_pay'],
  ['showInvoiceHistory', 'set_portal_history'],
];

async function settingsPage(ctx: AppContext, d: Dashboard, extra: PageExtra = {}) {
  const [m, business, portal, vat, accounting] = await Promise.all([
    d.deps.db.merchant.findUniqueOrThrow({ where: { id: d.merchant.id } }),
    getBusinessDetails(d.deps.db, d.merchant.id),
    getPortalSettings(d.deps.db, d.merchant.id),
    getVatSettings(d.db),
    loadAccountingView(d),
  ]);
  const st = (s: Section) => (extra.failed?.section === s ? localState(extra.failed.state, d.locale) : undefined);
  const bank = bankInvoiceSettings();
  const owner = d.can('manage_business');
  const t = d.t;
  const mode = d.tenant.mode === 'live' ? t.mode_live : t.mode_test;
  const yesNo = (v: boolean) => (v ? t.yes : t.no);
  const rateName = (r: string) => (`set_vat_rate_${r}` in t ? t[`set_vat_rate_${r}` as keyof DashboardMessages] : r);
  sendPage(ctx, d, {
    title: t.set_title,
    active: '/dashboard/settings',
    body: (
      <>
        <nav class="toc" aria-label={t.set_sections}>
          {(
            [
              ['business', t.set_toc_business],
              ['business-details', t.set_toc_details],
              ['portal-settings', t.set_toc_portal],
              ['accounting', t.set_toc_accounting],
              ['redirect-domains', t.set_toc_domains],
              ['allowed-origins', t.set_toc_origins],
              ['bank-invoice-settings', t.set_toc_bank],
              ['vat-settings', t.set_toc_vat],
              ['going-live', t.set_toc_live],
            ] as const
          ).map(([id, label]) => (
            <a href={`#${id}`}>{label}</a>
          ))}
        </nav>
        <Panel title={t.set_business} id="business">
          {owner ? (
            <form method="post" action="/dashboard/settings/profile" id="profile-form">
              <Csrf token={d.csrf} />
              <FormErrors state={st('profile')} />
              <Field name="name" label={t.set_business_name} value={m.name} state={st('profile')} input={{ required: true, maxLength: 200 }} />
              <Select name="default_currency" label={t.set_default_currency} value={m.defaultCurrency} state={st('profile')} options={SUPPORTED_CURRENCIES.map((c) => [c, c])} />
              <button type="submit">{t.c_save}</button>
            </form>
          ) : (
            <Props
              rows={[
                [t.set_business_name, m.name],
                [t.set_default_currency, m.defaultCurrency],
              ]}
            />
          )}
        </Panel>
        <Panel title={t.set_details_title} id="business-details">
          <p class="muted">{t.set_details_note}</p>
          {owner ? (
            <form method="post" action="/dashboard/settings/business-details" id="business-details-form" class="grid-form">
              <Csrf token={d.csrf} />
              <FormErrors state={st('business')} />
              {BUSINESS_FIELDS.map(([key, label, input]) => (
                <Field
                  name={BUSINESS_DETAIL_PARAMS[key]}
                  label={t[label]}
                  value={business[key]}
                  state={st('business')}
                  type={key === 'supportEmail' ? 'email' : 'text'}
                  input={input}
                />
              ))}
              <button type="submit" id="business-details-save">
                {t.set_details_save}
              </button>
            </form>
          ) : (
            <Props rows={BUSINESS_FIELDS.map(([key, label]) => [t[label], business[key]])} />
          )}
        </Panel>
        <Panel title={t.set_portal_title} id="portal-settings">
          <p class="muted">{t.set_portal_note}</p>
          {owner ? (
            <form method="post" action="/dashboard/settings/portal" id="portal-form">
              <Csrf token={d.csrf} />
              <FormErrors state={st('portal')} />
              <fieldset>
                <legend>{t.set_portal_legend}</legend>
                {PORTAL_SWITCHES.map(([key, label]) => (
                  <Checkbox name={PORTAL_SETTING_PARAMS[key]} label={t[label]} checked={portal[key]} state={st('portal')} />
                ))}
              </fieldset>
              <Field
                name="return_url"
                label={t.set_portal_return}
                type="url"
                value={portal.returnUrl}
                state={st('portal')}
                input={{ maxLength: 2048, placeholder: 'https://shop.example.is/account' }}
              />
              <button type="submit" id="portal-save">
                {t.set_portal_save}
              </button>
            </form>
          ) : (
            <Props
              rows={[
                ...PORTAL_SWITCHES.map(([key, label]): [string, string] => [fillText(t.set_portal_may, { what: t[label].toLowerCase() }), yesNo(portal[key])]),
                [t.set_portal_return_short, portal.returnUrl ?? t.st_none],
              ]}
            />
          )}
        </Panel>
        <Panel title={fillText(t.set_accounting_title, { mode })} id="accounting">
          <AccountingPanelBody d={d} view={accounting} state={st('accounting')} authorizeUrl={extra.authorizeUrl} />
          {accounting.progress?.link.status === 'active' ? <AccountingMappingForm d={d} link={accounting.progress.link} state={st('accounting')} /> : null}
        </Panel>
        <HostListPanel d={d} id="redirect-domains" section="domains" items={m.redirectDomains} state={st('domains')} />
        <HostListPanel d={d} id="allowed-origins" section="origins" items={m.allowedOrigins} state={st('origins')} />
        <Panel title={t.set_bank_title} id="bank-invoice-settings">
          <Props
            rows={[
              [t.set_bank_days, String(bank.defaultDaysUntilDue)],
              [t.set_bank_expiry, fillText(t.set_bank_expiry_value, { days: bank.claimExpiryDays })],
              [t.set_bank_recheck, fillText(t.set_bank_recheck_value, { days: bank.claimRecheckDays })],
            ]}
          />
          <p class="muted">{t.set_bank_note}</p>
        </Panel>
        <Panel title={fillText(t.set_vat_title, { mode })} id="vat-settings">
          {d.can('manage_accounting') ? (
            <form method="post" action="/dashboard/settings/vat" id="vat-form">
              <Csrf token={d.csrf} />
              <FormErrors state={st('vat')} />
              <Select name="country" label={t.set_vat_country} value={vat.country} state={st('vat')} options={VAT_COUNTRIES.map((c) => [c, c])} />
              <Select
                name="default_vat_rate"
                label={t.set_vat_rate}
                value={vat.defaultVatRate}
                state={st('vat')}
                options={VAT_RATE_IDS.map((r) => [r, `${rateName(r)} (${basisPointsToPercent(vatRatesOf(vat.country).find((x) => x.rate === r)?.basisPoints ?? 0)}%)`])}
              />
              <Select
                name="prices_include_vat"
                label={t.set_vat_included}
                value={vat.pricesIncludeVat ? 'true' : 'false'}
                state={st('vat')}
                options={[
                  ['true', t.set_vat_yes],
                  ['false', t.set_vat_no],
                ]}
              />
              <button type="submit">{t.set_vat_save}</button>
            </form>
          ) : (
            <Props
              rows={[
                [t.set_vat_country, vat.country],
                [t.set_vat_rate_short, rateName(vat.defaultVatRate)],
                [t.set_vat_included, yesNo(vat.pricesIncludeVat)],
              ]}
            />
          )}
          <p class="muted">{t.set_vat_note}</p>
        </Panel>
        <Panel title={t.set_live_title} id="going-live">
          {m.liveEnabledAt ? (
            <p id="live-status">{fillText(t.set_live_since, { date: when(m.liveEnabledAt, d.locale) })}</p>
          ) : owner ? (
            <>
              <p id="live-status">{t.set_live_test_only}</p>
              <ActionButton action="/dashboard/settings/go-live" csrf={d.csrf} label={t.set_live_button} id="go-live" danger confirm={t.set_live_confirm} />
              <FormErrors state={st('live')} />
            </>
          ) : (
            <p id="live-status">{t.set_live_owner_only}</p>
          )}
        </Panel>
      </>
    ),
  });
}

/** A business-details or portal patch from the form: every field the form has, by its API name. */
/**
 * Redirect domains and embedded-checkout origins: a list the developers edit in one text area (one
 * a line); other roles see it comma-separated.
 */
function HostListPanel(props: { d: Dashboard; id: string; section: 'domains' | 'origins'; items: string[]; state: FormState | undefined }) {
  const { d, id, section, items, state } = props;
  const t = d.t;
  return (
    <Panel title={t[`set_${section}_title` as const]} id={id}>
      <p class="muted">{t[`set_${section}_note` as const]}</p>
      {d.can('manage_developers') ? (
        <form method="post" action={`/dashboard/settings/${id}`} id={`${section}-form`}>
          <Csrf token={d.csrf} />
          <FormErrors state={state} />
          <TextArea name={section} label={t[`set_${section}_label` as const]} value={items.join('\n')} state={state} />
          <button type="submit">{t[`set_${section}_save` as const]}</button>
        </form>
      ) : (
        <p id={`${section}-list`}>{items.join(', ') || t.st_none}</p>
      )}
    </Panel>
  );
}

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
