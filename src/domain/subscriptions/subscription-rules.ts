// The contract's rules for subscriptions and their items, shared by create and by the commands that
// change a running subscription (docs/subscriptions.md "Rules"):
//  - prices: known in the tenant (resource_not_found), active with an active product
//    (invalid_subscription); every item recurring: a one-time price among recurring ones is
//    invalid_price_type, only one-time prices is invalid_subscription ("at least one recurring");
//  - all items share one currency and one interval (+ count), no price twice: invalid_subscription;
//  - charge_automatically needs the customer's default payment method, send_invoice a kennitala
//    and ISK (bank claims carry only ISK): invalid_subscription;
//  - metered items take no quantity, licensed items no included_units / credit_rollover:
//    validation_failed.
import type { TenantDb } from '../../db/tenancy';
import type { Customer, Price } from '../../generated/prisma/client';
import { errors } from '../../errors';
import { priceForNewSubscription, type PriceTerms } from '../prices/price-for-subscription';
import { validateDiscount, type Discount } from '../../billing';
import type { CollectionMethod, Interval } from '../../contracts/subscriptions';
import { DEFAULT_DAYS_UNTIL_DUE } from './dunning';

export const MAX_ITEMS = 20;
export const MAX_QUANTITY = 1_000_000;
export const MAX_TRIAL_DAYS = 730;
export const MAX_DAYS_UNTIL_DUE = 365;

export interface ItemInput {
  price: string;
  quantity?: number | null;
  credit_rollover?: boolean | null;
  included_units?: number | null;
  metadata?: unknown;
}

export interface PricedItem {
  input: ItemInput;
  price: Price;
  terms: PriceTerms;
  /** Where errors about this item point, e.g. `items[1]`. */
  param: string;
}

export interface BillingTerms {
  currency: string;
  interval: Interval;
  intervalCount: number;
}

function at(prefix: string | null, field: string): string {
  return prefix ? `${prefix}.${field}` : field;
}

/** Looks every price up and checks the per-item rules. `prefix(i)` names the item in errors (null: top level). */
export async function resolveItems(db: TenantDb, items: ItemInput[], prefix: (i: number) => string | null, opts: { hasRecurring?: boolean } = {}): Promise<PricedItem[]> {
  const out: PricedItem[] = [];
  for (let i = 0; i < items.length; i++) {
    const input = items[i]!;
    const param = prefix(i);
    const { price, terms } = await priceForNewSubscription(db, input.price, at(param, 'price'));
    out.push({ input, price, terms, param: param ?? '' });
  }
  const recurring = out.filter((p) => p.terms.type === 'recurring');
  if (out.length > 0 && recurring.length === 0 && !opts.hasRecurring) {
    throw errors.invalidSubscription('A subscription needs at least one item with a recurring price', at(out[0]!.param || null, 'price'));
  }
  for (const p of out) {
    const param = p.param || null;
    if (p.terms.type !== 'recurring') {
      throw errors.invalidPriceType(
        `Price ${p.price.id} is a one-time price; subscription items need recurring prices (add a one-off charge as an invoice item)`,
        at(param, 'price'),
      );
    }
    const metered = p.terms.usageType === 'metered';
    if (metered && p.input.quantity !== undefined && p.input.quantity !== null && p.input.quantity !== 1) {
      throw errors.validationFailed(`quantity is not used for metered prices (usage comes from the meter); omit it`, at(param, 'quantity'));
    }
    if (!metered && p.input.credit_rollover === true) {
      throw errors.validationFailed('credit_rollover applies only to items with a metered price', at(param, 'credit_rollover'));
    }
    if (!metered && p.input.included_units !== undefined && p.input.included_units !== null) {
      throw errors.validationFailed('included_units applies only to items with a metered price', at(param, 'included_units'));
    }
  }
  return out;
}

/** The shared currency and interval of the items (and of the subscription, when given). */
export function checkItemSet(items: PricedItem[], existing: (BillingTerms & { priceIds: string[] }) | null, param: string): BillingTerms {
  const first = items[0];
  const terms: BillingTerms = existing ?? {
    currency: first!.terms.currency,
    interval: first!.terms.interval as Interval,
    intervalCount: first!.terms.intervalCount ?? 1,
  };
  const seen = new Set(existing?.priceIds ?? []);
  for (const p of items) {
    if (p.terms.currency !== terms.currency) {
      throw errors.invalidSubscription(
        `All items of a subscription must share one currency: price ${p.price.id} is ${p.terms.currency}, the subscription ${terms.currency}`,
        param,
      );
    }
    if (p.terms.interval !== terms.interval || (p.terms.intervalCount ?? 1) !== terms.intervalCount) {
      throw errors.invalidSubscription(
        `All items of a subscription must share one billing interval: price ${p.price.id} bills every ${p.terms.intervalCount ?? 1} ${p.terms.interval}, the subscription every ${terms.intervalCount} ${terms.interval}`,
        param,
      );
    }
    if (seen.has(p.price.id)) throw errors.invalidSubscription(`Price ${p.price.id} is already on this subscription; change the item's quantity instead`, param);
    seen.add(p.price.id);
  }
  return terms;
}

/**
 * The collection method's needs: a default payment method (charge_automatically), or a kennitala
 * and ISK (send_invoice). Returns the days_until_due to store (null for charge_automatically).
 */
export async function checkCollection(
  db: TenantDb,
  customer: Customer,
  method: CollectionMethod,
  currency: string,
  daysUntilDue: number | null | undefined,
): Promise<number | null> {
  if (method === 'charge_automatically') {
    if (daysUntilDue !== undefined && daysUntilDue !== null) {
      throw errors.validationFailed('days_until_due applies only to collection_method send_invoice', 'days_until_due');
    }
    const pmId = customer.defaultPaymentMethodId;
    const pm = pmId ? await db.paymentMethod.findFirst({ where: { id: pmId, detachedAt: null }, select: { id: true, acquirerToken: true } }) : null;
    if (!pm || !pm.acquirerToken) {
      throw errors.invalidSubscription(`Customer '${customer.id}' has no default payment method; charge_automatically needs one (or use send_invoice)`, 'customer');
    }
    return null;
  }
  if (!customer.kennitala) {
    throw errors.invalidSubscription(`Customer '${customer.id}' has no kennitala; send_invoice issues a bank claim against it`, 'customer');
  }
  if (currency !== 'ISK') {
    throw errors.invalidSubscription(`send_invoice issues bank claims, which carry only ISK; this subscription is in ${currency}`, 'collection_method');
  }
  return daysUntilDue ?? DEFAULT_DAYS_UNTIL_DUE;
}

export interface DiscountInput {
  amount_off?: number | null;
  percent_off?: number | null;
  duration?: string | null;
  duration_in_months?: number | null;
}

/** The discount as stored (src/billing Discount), checked; validation_failed on `discount`. */
export function parseDiscount(input: DiscountInput): Discount {
  const d: Discount = {
    amount_off: input.amount_off ?? null,
    percent_off: input.percent_off ?? null,
    duration: (input.duration ?? 'once') as Discount['duration'],
    duration_in_months: input.duration_in_months ?? null,
  };
  const problems = validateDiscount(d);
  if (problems.length > 0) throw errors.validationFailed(problems[0]!, 'discount');
  return {
    ...(d.amount_off !== null ? { amount_off: d.amount_off } : {}),
    ...(d.percent_off !== null ? { percent_off: d.percent_off } : {}),
    duration: d.duration,
    ...(d.duration === 'repeating' ? { duration_in_months: d.duration_in_months } : {}),
  };
}
