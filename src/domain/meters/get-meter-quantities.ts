// GET /v1/meters/{id}/quantities: the meter (path id, resource_missing), the customer (query
// id, resource_not_found) and the inclusive period, then meterQuantity.
import type { Tenant, TenantDb } from '../../db/tenancy';
import { errors } from '../../errors';
import { requireCustomer } from '../customers/find-customers';
import { findMeter } from './manage-meters';
import { meterQuantities, meterQuantity, type MeterQuantityResult } from './meter-quantity';
import type { Meter } from '../../generated/prisma/client';

const DAY_MS = 86_400_000;

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

/** The meter's quantity per UTC day for the `days` days ending today (the dashboard's usage chart). */
export async function getMeterDailyUsage(
  db: TenantDb,
  tenant: Tenant,
  input: { meterId: string; customerId: string; days: number; now: Date },
): Promise<{ meter: Meter; days: Array<{ day: Date; quantity: string | null }> }> {
  const meter = await findMeter(db, input.meterId);
  const customer = await requireCustomer(db, input.customerId, 'customer');
  const today = Date.UTC(input.now.getUTCFullYear(), input.now.getUTCMonth(), input.now.getUTCDate());
  const ranges = Array.from({ length: input.days }, (_, i) => {
    const from = new Date(today - (input.days - 1 - i) * DAY_MS);
    return { from, to: new Date(from.getTime() + DAY_MS - 1) };
  });
  const { quantities } = await meterQuantities(db, tenant, { meter, customerId: customer.id, ranges });
  return { meter, days: ranges.map((r, i) => ({ day: r.from, quantity: quantities[i]! })) };
}
