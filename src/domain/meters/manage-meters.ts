// Meters: create, retrieve, list (archived hidden unless asked for) and archive (DELETE).
// Limits (the contract + docs/metering.md): name and event_name 1–200 characters, unit_label ≤ 100,
// unit_multiplier an integer ≥ 1, aggregate_property required except for count (null there),
// filter an object of at most 50 string → string pairs.
import type { Tenant, TenantDb } from '../../db/tenancy';
import type { Meter } from '../../generated/prisma/client';
import { errors } from '../../errors';
import { newId } from '../../ids';
import { isStorableText } from '../../validation/storable-text';
import { listPage, newestFirst, type Page, type PageParams } from '../../db/paging';
import { buildMeterRollups, lockMeterEventName } from './meter-rollups';
import { AGGREGATE_TYPES, type AggregateType, type MeterDefinition } from '../../metering';

export const METER_LIMITS = {
  nameLength: 200,
  eventNameLength: 200,
  unitLabelLength: 100,
  propertyLength: 200,
  filterPairs: 50,
  filterKeyLength: 200,
  filterValueLength: 500,
  maxUnitMultiplier: 2_147_483_647,
} as const;

export interface CreateMeterInput {
  name: string;
  event_name: string;
  aggregate_type: AggregateType;
  aggregate_property?: string | null;
  filter?: Record<string, unknown> | null;
  unit_label?: string | null;
  unit_multiplier?: number;
}

const invalid = (message: string, param: string) => errors.validationFailed(message, param);

function checkFilter(raw: unknown): Record<string, string> {
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== 'object' || Array.isArray(raw)) throw invalid('filter must be an object of string keys and string values', 'filter');
  const entries = Object.entries(raw as Record<string, unknown>);
  if (entries.length > METER_LIMITS.filterPairs) throw invalid(`filter can have at most ${METER_LIMITS.filterPairs} pairs`, 'filter');
  const out: Record<string, string> = {};
  for (const [k, v] of entries) {
    if (k.length === 0 || k.length > METER_LIMITS.filterKeyLength) throw invalid(`filter keys must be 1 to ${METER_LIMITS.filterKeyLength} characters`, 'filter');
    if (typeof v !== 'string') throw invalid(`filter value for "${k}" must be a string`, 'filter');
    if (v.length > METER_LIMITS.filterValueLength) throw invalid(`filter value for "${k}" must be at most ${METER_LIMITS.filterValueLength} characters`, 'filter');
    if (!isStorableText(k) || !isStorableText(v)) throw invalid('filter must not contain NUL characters or invalid Unicode', 'filter');
    out[k] = v;
  }
  return out;
}

export async function createMeter(db: TenantDb, tenant: Tenant, input: CreateMeterInput): Promise<Meter> {
  const name = input.name.trim();
  if (name === '') throw invalid('name must not be empty', 'name');
  if (input.event_name.length === 0) throw invalid('event_name must not be empty', 'event_name');
  if (!AGGREGATE_TYPES.includes(input.aggregate_type)) throw invalid(`aggregate_type must be one of ${AGGREGATE_TYPES.join(', ')}`, 'aggregate_type');
  const property = input.aggregate_property ?? null;
  if (input.aggregate_type === 'count') {
    if (property !== null) throw invalid('aggregate_property must be null for aggregate_type count', 'aggregate_property');
  } else if (property === null || property.length === 0) {
    throw invalid(`aggregate_property is required for aggregate_type ${input.aggregate_type}`, 'aggregate_property');
  }
  const multiplier = input.unit_multiplier ?? 1;
  if (!Number.isSafeInteger(multiplier) || multiplier < 1 || multiplier > METER_LIMITS.maxUnitMultiplier) {
    throw invalid(`unit_multiplier must be an integer from 1 to ${METER_LIMITS.maxUnitMultiplier}`, 'unit_multiplier');
  }
  await lockMeterEventName(db, tenant, input.event_name);
  const meter = await db.meter.create({
    data: {
      id: newId('meter'),
      merchantId: tenant.merchantId,
      mode: tenant.mode,
      name,
      eventName: input.event_name,
      aggregateType: input.aggregate_type,
      aggregateProperty: property,
      filter: checkFilter(input.filter),
      unitLabel: input.unit_label?.trim() || null,
      unitMultiplier: multiplier,
    },
  });
  await buildMeterRollups(db, tenant, meter);
  return meter;
}

export async function findMeter(db: TenantDb, id: string): Promise<Meter> {
  const row = await db.meter.findFirst({ where: { id } });
  if (!row) throw errors.resourceMissing(`No such meter: '${id}'`, 'id');
  return row;
}

/**
 * Archives: stops aggregating events received from now on; history stays readable. Archiving
 * an archived meter is a no-op that returns it unchanged (archived_at keeps the first time).
 * archived_at is the database clock (statement_timestamp()), the clock that stamps
 * usage_events.received_at; see meter-rollups.ts for why archiving takes the event name's lock.
 */
export async function archiveMeter(db: TenantDb, tenant: Tenant, id: string): Promise<Meter> {
  const meter = await findMeter(db, id);
  if (meter.archivedAt !== null) return meter;
  // The event name's exclusive lock waits for ingestion in flight (meter-rollups.ts); archived_at
  // is then the UPDATE's start, after those commits. The 2 ms pause before commit keeps every
  // later event's received_at (millisecond column) strictly after archived_at.
  await lockMeterEventName(db, tenant, meter.eventName);
  // Raw SQL filters tenant explicitly (the scoped client only rewrites model queries).
  await db.$executeRawUnsafe(
    `WITH a AS (UPDATE meters SET archived_at = statement_timestamp(), updated_at = now() WHERE merchant_id = $1 AND mode = $2::"Mode" AND id = $3 AND archived_at IS NULL RETURNING 1)
     SELECT pg_sleep(0.002) FROM a`,
    tenant.merchantId,
    tenant.mode,
    meter.id,
  );
  return findMeter(db, id);
}

export async function listMeters(db: TenantDb, params: PageParams, opts: { includeArchived: boolean }): Promise<Page<Meter>> {
  const where = opts.includeArchived ? {} : { archivedAt: null };
  return listPage({
    params,
    findCursor: async (cursorId) => {
      const m = await db.meter.findFirst({ where: { id: cursorId, ...where }, select: { id: true, createdAt: true } });
      return m && { id: m.id, sortKey: m.createdAt };
    },
    fetch: (after, take) => db.meter.findMany({ where: { ...where, ...(after ?? {}) }, orderBy: newestFirst(), take }),
  });
}

/** The metering module's view of a stored meter. */
export function meterDefinition(m: Pick<Meter, 'eventName' | 'aggregateType' | 'aggregateProperty' | 'filter' | 'unitMultiplier'>): MeterDefinition {
  const filter = (m.filter ?? {}) as Record<string, string>;
  return {
    eventName: m.eventName,
    aggregateType: m.aggregateType,
    aggregateProperty: m.aggregateType === 'count' ? null : m.aggregateProperty,
    filter: Object.keys(filter).length === 0 ? null : filter,
    unitMultiplier: m.unitMultiplier,
  };
}
