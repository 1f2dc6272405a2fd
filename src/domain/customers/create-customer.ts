// Creates a customer, attached to a test clock when one is given (same transaction: a refused
// clock leaves no customer behind), and records `customer.created` with it (the outbox,
// docs/events.md). `external_id` is unique per merchant and mode: a taken value answers 409
// resource_conflict with param external_id (docs/catalog.md).
import type { Tenant, TenantDb } from '../../db/tenancy';
import type { Customer } from '../../generated/prisma/client';
import { errors } from '../../errors';
import { newId } from '../../ids';
import { recordEvent, type RecordedEvent } from '../../events';
import { presentCustomer } from '../../objects/customers';
import { attachCustomerToTestClock } from '../test-clocks/manage-test-clocks';
import { customerColumns, type CustomerFieldsInput } from './customer-fields';
import { isUniqueViolation } from './unique-violation';

export interface CustomerChange {
  customer: Customer;
  /** The test clock the customer follows (null: wall time). */
  testClockId: string | null;
  events: RecordedEvent[];
}

export async function createCustomer(db: TenantDb, tenant: Tenant, input: CustomerFieldsInput & { email: string; testClockId?: string | null }): Promise<CustomerChange> {
  const customer = await insertCustomer(db, tenant, input);
  const testClockId = input.testClockId ?? null;
  if (testClockId) await attachCustomerToTestClock(db, tenant, { testClockId, customerId: customer.id, clockParam: 'test_clock' });
  const event = await recordEvent(db, tenant, { type: 'customer.created', data: presentCustomer(customer, testClockId) });
  return { customer, testClockId, events: [event] };
}

async function insertCustomer(db: TenantDb, tenant: Tenant, input: CustomerFieldsInput & { email: string }): Promise<Customer> {
  const columns = customerColumns(input);
  if (columns.externalId) await assertExternalIdFree(db, columns.externalId, null);
  try {
    return await db.customer.create({
      data: {
        ...columns,
        email: columns.email!,
        metadata: columns.metadata ?? {},
        id: newId('customer'),
        merchantId: tenant.merchantId,
        mode: tenant.mode,
      },
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw externalIdTaken(columns.externalId);
    throw err;
  }
}

export async function assertExternalIdFree(db: TenantDb, externalId: string, exceptId: string | null): Promise<void> {
  const other = await db.customer.findFirst({ where: { externalId, ...(exceptId ? { id: { not: exceptId } } : {}) }, select: { id: true } });
  if (other) throw externalIdTaken(externalId);
}

export function externalIdTaken(externalId: string | null | undefined) {
  return errors.resourceConflict(`Another customer already has external_id '${externalId ?? ''}'`, 'external_id');
}
