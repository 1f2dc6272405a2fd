// For subscriptions (issue 6): a price as plain numbers, and the check that a price (and its
// product) may be used for a NEW subscription. Inactive prices and products keep working for
// subscriptions that already use them; only new use is refused.
import type { TenantDb } from '../../db/tenancy';
import type { Price, Product } from '../../generated/prisma/client';
import type { PriceTier, TiersMode } from '../../billing';
import { errors } from '../../errors';

export interface PriceTerms {
  id: string;
  productId: string;
  currency: string;
  type: 'one_time' | 'recurring';
  unitAmount: number | null;
  interval: 'day' | 'week' | 'month' | 'year' | null;
  intervalCount: number | null;
  usageType: 'licensed' | 'metered' | null;
  aggregateUsage: 'sum' | 'max' | 'last_during_period' | null;
  tiersMode: TiersMode | null;
  tiers: PriceTier[] | null;
  meterId: string | null;
  includedUnits: number | null;
}

export function priceTerms(p: Price): PriceTerms {
  return {
    id: p.id,
    productId: p.productId,
    currency: p.currency,
    type: p.type,
    unitAmount: p.unitAmount === null ? null : Number(p.unitAmount),
    interval: p.recurringInterval,
    intervalCount: p.recurringIntervalCount,
    usageType: p.recurringUsageType,
    aggregateUsage: p.recurringAggregateUsage,
    tiersMode: p.tiersMode,
    tiers: (p.tiers as PriceTier[] | null) ?? null,
    meterId: p.meterId,
    includedUnits: p.includedUnits === null ? null : Number(p.includedUnits),
  };
}

/**
 * The price for a new subscription item: unknown (or another tenant's) → 404
 * resource_not_found; inactive price or product → 400 invalid_subscription.
 */
export async function priceForNewSubscription(db: TenantDb, priceId: string, param = 'price'): Promise<{ price: Price; product: Product; terms: PriceTerms }> {
  const price = await db.price.findFirst({ where: { id: priceId }, include: { product: true } });
  if (!price) throw errors.resourceNotFound(`No such price: '${priceId}'`, param);
  if (!price.active) throw errors.invalidSubscription(`Price ${price.id} is inactive and cannot be used for new subscriptions`, param);
  if (!price.product.active) throw errors.invalidSubscription(`Product ${price.product.id} of price ${price.id} is inactive and cannot be used for new subscriptions`, param);
  const { product, ...row } = price;
  return { price: row, product, terms: priceTerms(row) };
}
