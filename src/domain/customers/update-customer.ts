// PATCH semantics: only supplied fields change; `null` clears an optional field; `metadata`
// replaces the whole object (null clears it). `email` cannot be cleared.
import type { Tenant, TenantDb } from '../../db/tenancy';
import type { Customer } from '../../generated/prisma/client';
import { customerColumns, type CustomerFieldsInput } from './customer-fields';
import { assertExternalIdFree, externalIdTaken } from './create-customer';
import { findCustomer } from './find-customers';
import { isUniqueViolation } from './unique-violation';

/** Returns the customer after the change and as it was before (the caller decides whether anything changed). */
export async function updateCustomer(db: TenantDb, _tenant: Tenant, id: string, input: CustomerFieldsInput): Promise<{ customer: Customer; previous: Customer }> {
  const existing = await findCustomer(db, id);
  const columns = customerColumns(input);
  if (Object.keys(columns).length === 0) return { customer: existing, previous: existing };
  if (columns.externalId) await assertExternalIdFree(db, columns.externalId, id);
  try {
    return { customer: await db.customer.update({ where: { id: existing.id }, data: columns }), previous: existing };
  } catch (err) {
    if (isUniqueViolation(err)) throw externalIdTaken(columns.externalId);
    throw err;
  }
}
