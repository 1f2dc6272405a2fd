// Settings → Accounting connection → "Default account and VAT codes": the connection's default
// ledger account and the VAT-code mapping, edited through `updateAccountingSettings`
// (src/domain/accounting/update-accounting-settings.ts), the function behind the API's
// `POST /v1/accounting_link/settings`: the same checks against the provider's chart and VAT codes,
// the same field names in its errors. Finance and owners (manage_accounting); CSRF and the audit
// log through the settings form helper. The provider is asked step-wise, never inside a
// transaction. The sync workflow picks the new mapping up on its next poll.
import type { AppDeps } from '../../context';
import type { AccountingLink } from '../../../src/generated/prisma/client';
import { VAT_RATE_IDS } from '../../../src/billing';
import { updateAccountingSettings } from '../../../src/domain/accounting/update-accounting-settings';
import type { Dashboard } from '../session';
import { field } from '../http';
import { Csrf, Field, Props, type FormState } from '../views/ui';
import type { SettingsPost } from './settings-form';
import type { DashboardMessages } from '../i18n';

export const MAPPING_FIELDS = ['default_gl_account', ...VAT_RATE_IDS.map((r) => `vat_code_mapping.${r}`)] as const;

const RATE_LABELS: Record<(typeof VAT_RATE_IDS)[number], keyof DashboardMessages> = {
  standard: 'acc_mapping_standard',
  reduced: 'acc_mapping_reduced',
  exempt: 'acc_mapping_exempt',
};

function mappingOf(link: AccountingLink): Record<string, string> {
  const m = link.vatCodeMapping;
  return m && typeof m === 'object' && !Array.isArray(m) ? (m as Record<string, string>) : {};
}

/** The form (finance, owner) or the values (other roles) for an active link. */
export function AccountingMappingForm({ d, link, state }: { d: Dashboard; link: AccountingLink; state?: FormState }) {
  const mapping = mappingOf(link);
  const t = d.t;
  if (!d.can('manage_accounting')) {
    return (
      <Props
        rows={[[t.acc_default_account, link.defaultGlAccount ?? t.acc_not_set], ...VAT_RATE_IDS.map((r): [string, string] => [t[RATE_LABELS[r]], mapping[r] ?? t.acc_not_set])]}
      />
    );
  }
  return (
    <form method="post" action="/dashboard/settings/accounting/mapping" id="accounting-mapping" data-busy={t.acc_mapping_checking}>
      <h3>{t.acc_mapping_title}</h3>
      <p class="muted">{t.acc_mapping_note}</p>
      <Csrf token={d.csrf} />
      <Field name="default_gl_account" label={t.acc_default_account} value={link.defaultGlAccount ?? ''} state={state} input={{ maxLength: 100 }} />
      {VAT_RATE_IDS.map((r) => (
        <Field name={`vat_code_mapping.${r}`} label={t[RATE_LABELS[r]]} value={mapping[r] ?? ''} state={state} input={{ maxLength: 100 }} />
      ))}
      <button type="submit" id="accounting-mapping-save">
        {t.acc_mapping_save}
      </button>
    </form>
  );
}

export function accountingMappingRoute(deps: AppDeps, post: SettingsPost): void {
  post('/settings/accounting/mapping', 'accounting', MAPPING_FIELDS, (d) => ({
    permission: 'manage_accounting',
    action: 'accounting_link.settings',
    objectType: 'accounting_link',
    stepwise: true,
    run: async (_tx, _after, scope): Promise<AccountingLink> => {
      const account = field(d.form, 'default_gl_account').trim();
      const mapping: Record<string, string> = {};
      for (const r of VAT_RATE_IDS) {
        const code = field(d.form, `vat_code_mapping.${r}`).trim();
        if (code) mapping[r] = code;
      }
      return updateAccountingSettings(deps, scope, { ...(account ? { default_gl_account: account } : {}), vat_code_mapping: mapping });
    },
    resultId: (link) => link.id,
    detail: (link) => ({ default_gl_account: link.defaultGlAccount, vat_code_mapping: link.vatCodeMapping }),
    notice: 'settings_saved',
  }));
}
