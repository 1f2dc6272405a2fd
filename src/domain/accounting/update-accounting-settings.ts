// POST /v1/accounting_link/settings: `default_gl_account` must be an account in the provider's
// chart; every `vat_code_mapping` key a VAT rate identifier of the service and every value one of
// the provider's VAT codes. Both are checked against the provider, live. After commit the sync
// is nudged (records waiting for a default account go now).
import type { AccountingLink } from '../../generated/prisma/client';
import { errors } from '../../errors';
import { VAT_RATE_IDS, isVatRateId } from '../../billing';
import type { ApiDispatchDeps } from '../../events';
import type { RequestScope } from '../request-scope';
import { afterCommit } from '../workflow-calls';
import { catalogDeps, chartOfAccounts, vatCodes } from './provider-catalog';
import { syncInput, type AccountingSyncDeps } from './sync-workflow';
import { requireActiveLink } from './find-accounting-link';

export async function updateAccountingSettings(
  root: AccountingSyncDeps & ApiDispatchDeps,
  scope: RequestScope,
  input: { default_gl_account?: string; vat_code_mapping?: Record<string, unknown> },
): Promise<AccountingLink> {
  const deps = catalogDeps(root, scope.db);
  const link = await requireActiveLink(deps.db);
  const data: { defaultGlAccount?: string; vatCodeMapping?: Record<string, string> } = {};
  if (input.default_gl_account !== undefined) {
    const chart = await chartOfAccounts(deps);
    if (!chart.some((a) => a.code === input.default_gl_account)) {
      throw errors.validationFailed(
        `default_gl_account '${input.default_gl_account}' is not an account in the provider's chart (GET /v1/accounting_link/chart_of_accounts)`,
        'default_gl_account',
      );
    }
    data.defaultGlAccount = input.default_gl_account;
  }
  if (input.vat_code_mapping !== undefined) {
    const codes = new Set((await vatCodes(deps)).map((v) => v.code));
    const mapping: Record<string, string> = {};
    for (const [rate, code] of Object.entries(input.vat_code_mapping)) {
      if (!isVatRateId(rate))
        throw errors.validationFailed(
          `vat_code_mapping keys are VAT rate identifiers (${VAT_RATE_IDS.join(', ')}), got '${rate.slice(0, 50)}'`,
          `vat_code_mapping.${rate.slice(0, 50)}`,
        );
      if (typeof code !== 'string' || !codes.has(code)) {
        throw errors.validationFailed(
          `vat_code_mapping.${rate} must be one of the provider's VAT codes (GET /v1/accounting_link/vat_codes), got ${JSON.stringify(code)?.slice(0, 60)}`,
          `vat_code_mapping.${rate}`,
        );
      }
      mapping[rate] = code;
    }
    data.vatCodeMapping = mapping;
  }
  afterCommit(root, scope, `accounting link ${link.id}: sync not nudged`, () => root.workflows.accountingSync.nudge(syncInput(root, scope.tenant, link.id)));
  if (Object.keys(data).length === 0) return link;
  return deps.db.accountingLink.update({ where: { id: link.id }, data });
}
