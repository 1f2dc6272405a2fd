// THE meter aggregation, used by GET /v1/meters/{id}/quantities, metered billing (subscription
// invoices and their preview, portal and dashboard) and the dashboard's usage chart: one
// customer, one or more inclusive periods [from, to].
//
// It reads the hourly rollups for the whole hours of each period and raw usage events only for
// the partial hours at its edges (src/metering/rollups.ts, docs/metering.md "Rollups"), in one
// statement whatever the number of periods, finished by quantityFromAggregateRow exactly as the
// in-memory reference aggregateEvents finishes. For an archived meter only events RECEIVED no
// later than archived_at count: the rollups never hold others, and the raw edges add the bound.
// meterQuantityQuery is the raw-scan form (buildMeterAggregateQuery over every event of the
// period), kept as the reference the rollup path is tested and benchmarked against.
import type { Tenant, TenantDb } from '../../db/tenancy';
import type { Meter } from '../../generated/prisma/client';
import { errors } from '../../errors';
import { buildMeterAggregateQuery, buildRollupQuantityQuery, quantityFromAggregateRow, type MeterAggregateRow, type QuantityRange, type SqlQuery } from '../../metering';
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

async function resolveMeter(db: TenantDb, tenant: Tenant, input: { meter?: Meter; meterId?: string; meterParam?: string }): Promise<Meter> {
  if (input.meter) {
    if (input.meter.merchantId !== tenant.merchantId || input.meter.mode !== tenant.mode) throw new Error('meterQuantity: the meter belongs to another tenant');
    return input.meter;
  }
  if (!input.meterId) throw new Error('meterQuantity needs meter or meterId');
  const found = await db.meter.findFirst({ where: { id: input.meterId } });
  if (!found) throw errors.resourceMissing(`No such meter: '${input.meterId}'`, input.meterParam ?? 'id');
  return found;
}

export interface MeterQuantitiesInput {
  meter?: Meter;
  meterId?: string;
  meterParam?: string;
  customerId: string;
  /** Inclusive periods; the result has one quantity per period, in order. */
  ranges: ReadonlyArray<QuantityRange>;
}

/** The statement meterQuantities runs for this meter, customer and periods (the benchmark EXPLAINs exactly this). */
export function meterQuantitiesQuery(tenant: Tenant, meter: Meter, customerId: string, ranges: ReadonlyArray<QuantityRange>): SqlQuery {
  return buildRollupQuantityQuery({
    merchantId: tenant.merchantId,
    mode: tenant.mode,
    customerId,
    meterId: meter.id,
    meter: meterDefinition(meter),
    archivedAt: meter.archivedAt,
    ranges,
  });
}

/** The meter's quantity for each period (one statement). */
export async function meterQuantities(db: TenantDb, tenant: Tenant, input: MeterQuantitiesInput): Promise<{ meter: Meter; quantities: Array<string | null> }> {
  const meter = await resolveMeter(db, tenant, input);
  const definition = meterDefinition(meter);
  const q = meterQuantitiesQuery(tenant, meter, input.customerId, input.ranges);
  const rows = await db.$queryRawUnsafe<Array<MeterAggregateRow & { i: number; purged_before: string | null }>>(q.text, ...q.values);
  if (rows.length !== input.ranges.length) throw new Error(`meter quantities: ${rows.length} rows for ${input.ranges.length} periods`);
  const purged = rows.find((r) => r.purged_before !== null);
  if (purged) {
    // Retention dropped the raw events this period's partial-hour edge needs (docs/metering.md
    // "Retention"): refuse rather than answer with fewer events.
    throw errors.validationFailed(
      `period starts or ends inside an hour before ${purged.purged_before}, when raw usage events were removed by the retention setting; use whole-hour period bounds`,
      'period_start',
    );
  }
  return { meter, quantities: rows.map((row) => quantityFromAggregateRow(definition, row)) };
}

export async function meterQuantity(db: TenantDb, tenant: Tenant, input: MeterQuantityInput): Promise<MeterQuantityResult> {
  const { meter, quantities } = await meterQuantities(db, tenant, { ...input, ranges: [{ from: input.from, to: input.to }] });
  return { meter, quantity: quantities[0]! };
}

/** The raw-scan quantity (every event of the period read); the reference for tests and the benchmark. */
export async function rawMeterQuantity(db: TenantDb, tenant: Tenant, meter: Meter, customerId: string, from: Date, to: Date): Promise<string | null> {
  const q = meterQuantityQuery(tenant, meter, customerId, from, to);
  // Dates go as ISO text with Z: the driver adapter sends a Date without a zone, which
  // ::timestamptz would read in the session time zone (wrong unless the server runs in UTC).
  const values = q.values.map((v) => (v instanceof Date ? v.toISOString() : v));
  const rows = await db.$queryRawUnsafe<MeterAggregateRow[]>(q.text, ...values);
  return quantityFromAggregateRow(meterDefinition(meter), rows[0] ?? { value: null, n: 0 });
}
