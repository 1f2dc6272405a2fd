// PATCH semantics: only supplied fields change; `null` clears an optional field; `metadata`
// replaces the whole object (null clears it). `email` cannot be cleared. Only a real change is
// an event: a PATCH that sets what is already there records no `customer.updated`.
import type { Tenant, TenantDb } from '../../db/tenancy';
import type { Customer } from '../../generated/prisma/client';
import { recordEvent } from '../../events';
import { presentCustomer, presentCustomerFields } from '../../objects/customers';
import { customerColumns, type CustomerFieldsInput } from './customer-fields';
import { assertExternalIdFree, externalIdTaken, type CustomerChange } from './create-customer';
import { withTestClocks } from './customer-test-clocks';
import { findCustomer } from './find-customers';
import { isUniqueViolation } from './unique-violation';

export async function updateCustomer(db: TenantDb, tenant: Tenant, id: string, input: CustomerFieldsInput): Promise<CustomerChange> {
  const { customer, previous } = await writeChanges(db, id, input);
  const testClockId = (await withTestClocks(db, [customer]))[0]?.testClockId ?? null;
  // PATCH cannot change the test clock, so the other presented fields decide.
  if (JSON.stringify(presentCustomerFields(previous)) === JSON.stringify(presentCustomerFields(customer))) return { customer, testClockId, events: [] };
  const event = await recordEvent(db, tenant, { type: 'customer.updated', data: presentCustomer(customer, testClockId) });
  return { customer, testClockId, events: [event] };
}

async function writeChanges(db: TenantDb, id: string, input: CustomerFieldsInput): Promise<{ customer: Customer; previous: Customer }> {
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
