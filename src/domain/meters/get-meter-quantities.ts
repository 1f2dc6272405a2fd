// GET /v1/meters/{id}/quantities: the meter (path id, resource_missing), the customer (query
// id, resource_not_found) and the inclusive period, then meterQuantity.
import type { Tenant, TenantDb } from '../../db/tenancy';
import { errors } from '../../errors';
import { requireCustomer } from '../customers/find-customers';
import { findMeter } from './manage-meters';
import { meterQuantity, type MeterQuantityResult } from './meter-quantity';

export async function getMeterQuantities(
  db: TenantDb,
  tenant: Tenant,
  input: { meterId: string; customerId: string; from: Date; to: Date },
): Promise<MeterQuantityResult & { customerId: string }> {
  if (input.from.getTime() > input.to.getTime()) throw errors.validationFailed('period_start must not be after period_end', 'period_start');
  const meter = await findMeter(db, input.meterId);
  const customer = await requireCustomer(db, input.customerId, 'customer');
  const result = await meterQuantity(db, tenant, { meter, customerId: customer.id, from: input.from, to: input.to });
  return { ...result, customerId: customer.id };
}
