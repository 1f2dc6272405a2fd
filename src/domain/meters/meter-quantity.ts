// THE meter aggregation over stored usage events, used by GET /v1/meters/{id}/quantities and
// by metered billing (subscriptions): one customer, one inclusive period [from, to].
//
// The SQL is src/metering's buildMeterAggregateQuery (tenant, customer, event name, period,
// filter as $n parameters), finished by quantityFromAggregateRow exactly as the in-memory
// reference aggregateEvents finishes. For an archived meter one more bound is added: only
// events RECEIVED no later than archived_at count, so events that arrive after archiving are
// never aggregated while the meter's history (and backfills made before archiving) stay readable.
// The index usage_events(merchant_id, mode, customer_id, event_name, "timestamp") serves it;
// docs/metering.md has the measurements and the partitioning path.
import type { Tenant, TenantDb } from '../../db/tenancy';
import type { Meter } from '../../generated/prisma/client';
import { errors } from '../../errors';
import { buildMeterAggregateQuery, quantityFromAggregateRow, type MeterAggregateRow, type SqlQuery } from '../../metering';
import { meterDefinition } from './manage-meters';

export interface MeterQuantityInput {
  /** The meter row, or its id (looked up within the tenant; unknown → resource_missing, param `meterParam`). */
  meter?: Meter;
  meterId?: string;
  meterParam?: string;
  customerId: string;
  /** Inclusive bounds. */
  from: Date;
  to: Date;
}

export interface MeterQuantityResult {
  meter: Meter;
  /** Exact decimal text after unit_multiplier; null = "no value" (max/min/avg over no events). */
  quantity: string | null;
}

/** The SQL for one meter, customer and period, with the archived-meter bound when it applies. */
export function meterQuantityQuery(tenant: Tenant, meter: Meter, customerId: string, from: Date, to: Date): SqlQuery {
  const q = buildMeterAggregateQuery({ merchantId: tenant.merchantId, mode: tenant.mode, customerId, meter: meterDefinition(meter), from, to });
  if (meter.archivedAt === null) return q;
  const values = [...q.values, meter.archivedAt];
  return { text: `${q.text} AND received_at <= $${values.length}::timestamptz`, values };
}

export async function meterQuantity(db: TenantDb, tenant: Tenant, input: MeterQuantityInput): Promise<MeterQuantityResult> {
  let meter = input.meter;
  if (!meter) {
    if (!input.meterId) throw new Error('meterQuantity needs meter or meterId');
    const found = await db.meter.findFirst({ where: { id: input.meterId } });
    if (!found) throw errors.resourceMissing(`No such meter: '${input.meterId}'`, input.meterParam ?? 'id');
    meter = found;
  } else if (meter.merchantId !== tenant.merchantId || meter.mode !== tenant.mode) {
    throw new Error('meterQuantity: the meter belongs to another tenant');
  }
  const q = meterQuantityQuery(tenant, meter, input.customerId, input.from, input.to);
  // Dates go as ISO text with Z: the driver adapter sends a Date without a zone, which
  // ::timestamptz would read in the session time zone (wrong unless the server runs in UTC).
  const values = q.values.map((v) => (v instanceof Date ? v.toISOString() : v));
  const rows = await db.$queryRawUnsafe<MeterAggregateRow[]>(q.text, ...values);
  return { meter, quantity: quantityFromAggregateRow(meterDefinition(meter), rows[0] ?? { value: null, n: 0 }) };
}
