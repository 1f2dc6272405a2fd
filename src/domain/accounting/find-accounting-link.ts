// The merchant's accounting link in the key's mode: the current one (active or in error), else
// the most recent (disconnected) one.
import type { TenantDb } from '../../db/tenancy';
import type { AccountingLink } from '../../generated/prisma/client';
import { errors } from '../../errors';

export async function findAccountingLink(db: TenantDb): Promise<AccountingLink> {
  const link =
    (await db.accountingLink.findFirst({ where: { currentKey: { not: null } } })) ?? (await db.accountingLink.findFirst({ orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] }));
  if (!link) throw errors.resourceMissing('No accounting link: connect one with POST /v1/accounting_link/connect or /complete', 'accounting_link');
  return link;
}

/** The current link; refused unless it is active. */
export async function requireActiveLink(db: TenantDb): Promise<AccountingLink> {
  const link = await db.accountingLink.findFirst({ where: { currentKey: { not: null } } });
  if (!link) throw errors.resourceMissing('No accounting link is connected', 'accounting_link');
  if (link.status !== 'active')
    throw errors.invalidState(`The accounting link is in error: ${link.statusReason ?? 'the provider refused its credentials'}. Connect it again.`, 'accounting_link');
  return link;
}
