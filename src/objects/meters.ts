import type { Meter } from '../generated/prisma/client';
import { iso } from './iso';

export function presentMeter(m: Meter) {
  return {
    id: m.id,
    name: m.name,
    event_name: m.eventName,
    aggregate_type: m.aggregateType,
    aggregate_property: m.aggregateProperty,
    filter: m.filter,
    unit_label: m.unitLabel,
    unit_multiplier: m.unitMultiplier,
    archived: m.archivedAt !== null,
    archived_at: iso(m.archivedAt),
    created_at: iso(m.createdAt),
  };
}

/** `quantity` is a JSON number (exact up to 2^53; docs/metering.md), null for "no value". */
export function presentQuantity(r: { meterId: string; customerId: string; from: Date; to: Date; quantity: string | null }) {
  return {
    meter: r.meterId,
    customer: r.customerId,
    period_start: iso(r.from),
    period_end: iso(r.to),
    quantity: r.quantity === null ? null : Number(r.quantity),
  };
}
