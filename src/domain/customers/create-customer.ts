// Creates a customer. `external_id` is unique per merchant and mode: a taken value answers
// 409 resource_conflict with param external_id (docs/catalog.md).
import type { Tenant, TenantDb } from '../../db/tenancy';
import type { Customer } from '../../generated/prisma/client';
import { errors } from '../../errors';
import { newId } from '../../ids';
import { customerColumns, type CustomerFieldsInput } from './customer-fields';
import { isUniqueViolation } from './unique-violation';

export async function createCustomer(db: TenantDb, tenant: Tenant, input: CustomerFieldsInput & { email: string }): Promise<Customer> {
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
