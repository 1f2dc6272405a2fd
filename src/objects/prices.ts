import type { Price } from '../generated/prisma/client';
import { iso } from './iso';

export function presentPrice(p: Price) {
  return {
    id: p.id,
    product: p.productId,
    currency: p.currency,
    type: p.type,
    unit_amount: p.unitAmount === null ? null : Number(p.unitAmount),
    recurring:
      p.recurringInterval === null
        ? null
        : {
            interval: p.recurringInterval,
            interval_count: p.recurringIntervalCount ?? 1,
            usage_type: p.recurringUsageType ?? 'licensed',
            aggregate_usage: p.recurringAggregateUsage,
          },
    tiers_mode: p.tiersMode,
    tiers: p.tiers ?? null,
    meter: p.meterId,
    included_units: p.includedUnits === null ? null : Number(p.includedUnits),
    accounting_code: p.accountingCode,
    vat_rate: p.vatRate,
    active: p.active,
    metadata: p.metadata,
    created_at: iso(p.createdAt),
  };
}
