// POST /v1/subscriptions, inside the request's transaction: checks every rule of the contract
// (./subscription-rules.ts), writes the subscription and its items and, without a trial, the
// first invoice as a draft (licensed items for the first period; period_key makes it the only
// one), and records subscription.created. The caller starts the workflow after commit (the
// reconciler does it within a minute if that start is lost), which finalizes and collects the
// invoice and runs every later period.
//
// Time: a customer attached to a test clock subscribes at the clock's frozen time (its trial,
// anchor and periods follow the clock); others at wall time.
import type { Tenant, TenantDb } from '../../db/tenancy';
import type { Subscription, SubscriptionItem } from '../../generated/prisma/client';
import { errors } from '../../errors';
import { newId } from '../../ids';
import { datingEventsAt, type RecordedEvent } from '../../events';
import { periodAt, type BillingInterval } from '../../billing';
import type { CollectionMethod } from '../../contracts/subscriptions';
import { requireCustomer } from '../customers/find-customers';
import { metadataOrThrow } from '../checks/metadata';
import { testClockOfCustomer } from '../test-clocks/manage-test-clocks';
import { checkCollection, checkItemSet, parseDiscount, resolveItems, type DiscountInput, type ItemInput } from './subscription-rules';
import { buildSubscriptionInvoice } from './build-invoice';
import { recordSubscriptionEvent } from './subscription-events';

const DAY_MS = 86_400_000;

export interface CreateSubscriptionInput {
  customer: string;
  items: ItemInput[];
  collection_method?: CollectionMethod | null;
  trial_period_days?: number | null;
  days_until_due?: number | null;
  discount?: DiscountInput | null;
  metadata?: unknown;
}

export interface CreatedSubscription {
  subscription: Subscription;
  items: SubscriptionItem[];
  /** The clock's frozen time for test-clock customers (the workflow starts from it). */
  clockTime: Date | null;
  events: RecordedEvent[];
}

export async function createSubscription(db: TenantDb, tenant: Tenant, input: CreateSubscriptionInput, wallNow: Date): Promise<CreatedSubscription> {
  const customer = await requireCustomer(db, input.customer, 'customer');
  const clock = await testClockOfCustomer(db, tenant, customer.id);
  if (clock?.deletedAt) throw errors.invalidSubscription(`Customer '${customer.id}' is attached to a deleted test clock`, 'customer');
  if (clock?.status === 'advancing') throw errors.invalidState(`The test clock of customer '${customer.id}' is advancing; retry when it is ready`, 'customer');
  const now = clock ? clock.frozenTime : wallNow;

  const priced = await resolveItems(db, input.items, (i) => `items[${i}]`);
  const terms = checkItemSet(priced, null, 'items');
  const method: CollectionMethod = input.collection_method ?? 'charge_automatically';
  const daysUntilDue = await checkCollection(db, customer, method, terms.currency, input.days_until_due);
  const discount = input.discount ? parseDiscount(input.discount) : null;
  const metadata = metadataOrThrow(input.metadata);
  const itemMetadata = priced.map((p) => metadataOrThrow(p.input.metadata, `${p.param}.metadata`));

  const trialDays = input.trial_period_days ?? 0;
  const trialEnd = trialDays > 0 ? new Date(now.getTime() + trialDays * DAY_MS) : null;
  const anchor = trialEnd ?? now;
  const first = periodAt(anchor, terms.interval as BillingInterval, terms.intervalCount, 0);
  const id = newId('subscription');
  const subscription = await db.subscription.create({
    data: {
      id,
      merchantId: tenant.merchantId,
      mode: tenant.mode,
      customerId: customer.id,
      status: trialEnd ? 'trialing' : 'active',
      collectionMethod: method,
      daysUntilDue,
      currency: terms.currency,
      interval: terms.interval,
      intervalCount: terms.intervalCount,
      billingCycleAnchor: anchor,
      startDate: now,
      // During a trial the trial is the current period; it ends at trial_end.
      currentPeriodStart: now,
      currentPeriodEnd: trialEnd ?? first.end,
      trialStart: trialEnd ? now : null,
      trialEnd,
      discount: discount ? (discount as object) : undefined,
      discountStart: discount ? anchor : null,
      metadata,
      testClockId: clock?.id ?? null,
      clockSyncedTo: clock ? clock.frozenTime : null,
      // A test-clock subscription is created at its clock's time (docs/test-clocks.md "Timestamps").
      ...(clock ? { createdAt: now } : {}),
    },
  });
  // Ids in input order (time-prefixed ids sort by their time part; rows of one transaction share created_at).
  const idBase = Date.now();
  await db.subscriptionItem.createMany({
    data: priced.map((p, i) => ({
      id: newId('subscriptionItem', idBase + i),
      merchantId: tenant.merchantId,
      mode: tenant.mode,
      subscriptionId: id,
      priceId: p.price.id,
      quantity: p.terms.usageType === 'metered' ? 1 : (p.input.quantity ?? 1),
      creditRollover: p.input.credit_rollover ?? false,
      includedUnits: p.input.included_units === undefined || p.input.included_units === null ? null : BigInt(p.input.included_units),
      metadata: itemMetadata[i]!,
    })),
  });
  if (!trialEnd) {
    await buildSubscriptionInvoice(db, tenant, {
      subscription,
      billingReason: 'subscription_create',
      keyPart: anchor.toISOString(),
      discountBoundary: anchor,
      period: { start: first.start, end: first.end },
      openingPeriod: { start: first.start, end: first.end },
      closingPeriod: null,
      pendingScope: 'customer',
      issuedAt: now,
    });
  }
  const record = () => recordSubscriptionEvent(db, tenant, 'subscription.created', subscription);
  const events = [clock ? await datingEventsAt(now, record) : await record()];
  const items = await db.subscriptionItem.findMany({ where: { subscriptionId: id }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
  return { subscription, items, clockTime: clock ? clock.frozenTime : null, events };
}
