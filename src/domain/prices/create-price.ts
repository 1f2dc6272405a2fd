// Creates a price with every rule of the contract (docs/catalog.md):
// - `recurring` is required for recurring prices and must be null for one-time prices;
// - with `tiers_mode`, `tiers` are required (ascending, only the last open) and `unit_amount`
//   is null; without it, `unit_amount` is required and `tiers` absent; tiers need a recurring price;
// - a metered price (`recurring.usage_type: metered`) needs a `meter` that is not archived;
//   `meter`, `included_units` and `aggregate_usage` belong to metered prices only;
// - `currency` defaults to the merchant's default and must be supported.
import type { Tenant, TenantDb } from '../../db/tenancy';
import type { Price } from '../../generated/prisma/client';
import { errors } from '../../errors';
import { newId } from '../../ids';
import { isSupportedCurrency, validateTiers, type PriceTier } from '../../billing';
import { metadataOrThrow } from '../checks/metadata';

export const PRICE_TYPES = ['one_time', 'recurring'] as const;
export const PRICE_INTERVALS = ['day', 'week', 'month', 'year'] as const;
export const USAGE_TYPES = ['licensed', 'metered'] as const;
export const AGGREGATE_USAGES = ['sum', 'max', 'last_during_period'] as const;
export const TIERS_MODES = ['graduated', 'volume'] as const;
export const MAX_TIERS = 100;

/** interval_count limit per interval: a billing period is at most three years (as Stripe's). */
export const MAX_INTERVAL_COUNT: Readonly<Record<(typeof PRICE_INTERVALS)[number], number>> = { day: 1095, week: 156, month: 36, year: 3 };

export interface TierInput {
  up_to?: number | null;
  unit_amount?: number | null;
  flat_amount?: number | null;
}

export interface CreatePriceInput {
  product: string;
  type: (typeof PRICE_TYPES)[number];
  currency?: string | null;
  unit_amount?: number | null;
  recurring?: {
    interval: (typeof PRICE_INTERVALS)[number];
    interval_count?: number;
    usage_type?: (typeof USAGE_TYPES)[number];
    aggregate_usage?: (typeof AGGREGATE_USAGES)[number] | null;
  } | null;
  tiers_mode?: (typeof TIERS_MODES)[number] | null;
  tiers?: TierInput[] | null;
  meter?: string | null;
  included_units?: number | null;
  accounting_code?: string | null;
  vat_rate?: string | null;
  active?: boolean;
  metadata?: Record<string, unknown> | null;
}

const invalid = (message: string, param: string) => errors.validationFailed(message, param);

export async function createPrice(db: TenantDb, tenant: Tenant, input: CreatePriceInput): Promise<Price> {
  const product = await db.product.findFirst({ where: { id: input.product }, select: { id: true } });
  if (!product) throw errors.resourceNotFound(`No such product: '${input.product}'`, 'product');

  let currency: string;
  if (input.currency === undefined || input.currency === null) {
    const merchant = await db.merchant.findUnique({ where: { id: tenant.merchantId }, select: { defaultCurrency: true } });
    currency = merchant?.defaultCurrency ?? 'ISK';
  } else {
    currency = input.currency.trim().toUpperCase();
    if (!isSupportedCurrency(currency)) throw invalid(`currency ${input.currency} is not supported`, 'currency');
  }

  const recurring = input.recurring ?? null;
  if (input.type === 'recurring' && recurring === null) throw invalid('recurring is required when type is recurring', 'recurring');
  if (input.type === 'one_time' && recurring !== null) throw invalid('recurring must be null for a one_time price', 'recurring');
  let intervalCount: number | null = null;
  let usageType: (typeof USAGE_TYPES)[number] | null = null;
  let aggregateUsage: (typeof AGGREGATE_USAGES)[number] | null = null;
  if (recurring !== null) {
    intervalCount = recurring.interval_count ?? 1;
    const max = MAX_INTERVAL_COUNT[recurring.interval];
    if (intervalCount > max) throw invalid(`recurring.interval_count must be at most ${max} for interval ${recurring.interval} (three years)`, 'recurring.interval_count');
    usageType = recurring.usage_type ?? 'licensed';
    if (usageType === 'metered') aggregateUsage = recurring.aggregate_usage ?? 'sum';
    else if (recurring.aggregate_usage !== undefined && recurring.aggregate_usage !== null) {
      throw invalid('recurring.aggregate_usage applies only to metered prices', 'recurring.aggregate_usage');
    }
  }

  const tiersMode = input.tiers_mode ?? null;
  let tiers: PriceTier[] | null = null;
  let unitAmount: number | null = null;
  if (tiersMode !== null) {
    if (input.type !== 'recurring') throw invalid('tiers_mode requires a recurring price', 'tiers_mode');
    if (input.unit_amount !== undefined && input.unit_amount !== null) throw invalid('unit_amount must be null when tiers_mode is set', 'unit_amount');
    if (input.tiers === undefined || input.tiers === null) throw invalid('tiers are required when tiers_mode is set', 'tiers');
    if (input.tiers.length > MAX_TIERS) throw invalid(`tiers can have at most ${MAX_TIERS} entries`, 'tiers');
    tiers = input.tiers.map((t, i) => {
      if (t.up_to === undefined) throw invalid(`tier ${i + 1}: up_to is required (a number, or null for the last, open tier)`, `tiers[${i}].up_to`);
      return { up_to: t.up_to, unit_amount: t.unit_amount ?? null, flat_amount: t.flat_amount ?? null };
    });
    const problems = validateTiers(tiers);
    if (problems.length > 0) throw invalid(problems[0]!, 'tiers');
  } else {
    if (input.tiers !== undefined && input.tiers !== null) throw invalid('tiers require tiers_mode (graduated or volume)', 'tiers');
    if (input.unit_amount === undefined || input.unit_amount === null) throw invalid('unit_amount is required unless tiers_mode is set', 'unit_amount');
    unitAmount = input.unit_amount;
  }

  let meterId: string | null = null;
  if (usageType === 'metered') {
    if (input.meter === undefined || input.meter === null) throw invalid('meter is required for a metered price', 'meter');
    const meter = await db.meter.findFirst({ where: { id: input.meter }, select: { id: true, archivedAt: true } });
    if (!meter) throw errors.resourceNotFound(`No such meter: '${input.meter}'`, 'meter');
    if (meter.archivedAt !== null) throw invalid(`meter ${meter.id} is archived and cannot be used for new prices`, 'meter');
    meterId = meter.id;
  } else {
    if (input.meter !== undefined && input.meter !== null) throw invalid('meter applies only to metered prices (recurring.usage_type metered)', 'meter');
    if (input.included_units !== undefined && input.included_units !== null) {
      throw invalid('included_units applies only to metered prices (recurring.usage_type metered)', 'included_units');
    }
  }

  return db.price.create({
    data: {
      id: newId('price'),
      merchantId: tenant.merchantId,
      mode: tenant.mode,
      productId: product.id,
      currency,
      type: input.type,
      unitAmount: unitAmount === null ? null : BigInt(unitAmount),
      recurringInterval: recurring?.interval ?? null,
      recurringIntervalCount: intervalCount,
      recurringUsageType: usageType,
      recurringAggregateUsage: aggregateUsage,
      tiersMode,
      tiers: tiers === null ? undefined : (tiers as unknown as object[]),
      meterId,
      includedUnits: usageType === 'metered' && input.included_units !== undefined && input.included_units !== null ? BigInt(input.included_units) : null,
      accountingCode: input.accounting_code?.trim() || null,
      vatRate: input.vat_rate ?? null,
      active: input.active ?? true,
      metadata: metadataOrThrow(input.metadata),
    },
  });
}
