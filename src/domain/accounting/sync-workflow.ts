// The accounting link's sync workflow as the accounting use cases drive it (through its client
// module, deps.workflows.accountingSync): what a link's sync is started with, and the start of a
// new link's sync (stopping the one it replaced).
import type { Config } from '../../config';
import type { Tenant } from '../../db/tenancy';
import type { AccountingSyncInput } from '../../contracts/accounting';
import type { WorkflowClients } from '../../temporal/workflow-clients';
import type { WorkflowCallDeps } from '../workflow-calls';

/** What the accounting use cases that move a link's sync need from the composition root. */
export interface AccountingSyncDeps extends WorkflowCallDeps {
  config: Config;
  workflows: Pick<WorkflowClients, 'accountingSync'>;
}

export function syncInput(deps: AccountingSyncDeps, tenant: Tenant, linkId: string): AccountingSyncInput {
  return { linkId, merchantId: tenant.merchantId, mode: tenant.mode, pollSeconds: deps.config.accountingSyncPollSeconds };
}

/** Starts a new link's sync; first stops the sync of the link it replaced. Safe to repeat. */
export async function startLinkSync(deps: AccountingSyncDeps, tenant: Tenant, linkId: string, replaced: string | null): Promise<void> {
  if (replaced) await deps.workflows.accountingSync.stop(replaced);
  await deps.workflows.accountingSync.start(syncInput(deps, tenant, linkId));
}
