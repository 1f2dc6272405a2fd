// Applies a command to a subscription in one transaction (the activity behind the workflow's
// `command` update): cancel, uncancel, pause, resume, update, item add/update/delete with
// proration, void an invoice. The subscription row is locked for the whole change; the command
// id is inserted in the same transaction, so a retried activity applies a command once.
// `now` is the subscription's time (its test clock's, or the workflow's).
// Rules and the meaning of each command: docs/subscriptions.md.
import type { Db } from '../../db/client';
import { scopedDb, type Tenant, type TenantDb } from '../../db/tenancy';
import { Prisma, type Subscription, type SubscriptionItem } from '../../generated/prisma/client';
import { errors } from '../../errors';
import type { RecordedEvent } from '../../events';
import { priceAmount, prorationLines } from '../../billing';
import { newId } from '../../ids';
import { mergeMetadataPatch, validateMetadataPatch, type Metadata } from '../../validation';
import type { ApplyCommandInput, ProrationBehavior, SubscriptionChanges } from '../../contracts/subscriptions';
import { metadataOrThrow } from '../customers/customer-fields';
import { priceTerms } from '../prices/price-for-subscription';
import { checkCollection, checkItemSet, parseDiscount, resolveItems } from './subscription-rules';
import { buildSubscriptionInvoice } from './build-invoice';
import { recordSubscriptionEvent } from './subscription-events';
import { refreshCollectionStatus } from './collection-status';
import { itemsOf } from './find-subscriptions';
import { recordInvoiceVoided } from '../invoices/invoice-voided-event';

export interface CommandOutcome {
  objectId: string | null;
  events: RecordedEvent[];
  /** A voided invoice's bank claim, to cancel at the bank after commit. */
  claimToCancel: { invoiceId: string; claimId: string } | null;
}

/** Transaction options of every subscription billing step (they lock the row, then do a period's work). */
export const STEP_TX = { timeout: 60_000, maxWait: 10_000 } as const;

export async function lockSubscription(db: TenantDb, tenant: Tenant, id: string): Promise<void> {
  await db.$executeRaw`SELECT 1 FROM subscriptions WHERE id = ${id} AND merchant_id = ${tenant.merchantId} AND mode = ${tenant.mode}::"Mode" FOR UPDATE`;
}

function objectIdOf(cmd: ApplyCommandInput['command']): string | null {
  if (cmd.kind === 'add_item' || cmd.kind === 'update_item' || cmd.kind === 'delete_item') return cmd.itemId;
  if (cmd.kind === 'void_invoice') return cmd.invoiceId;
  return null;
}

export async function applySubscriptionCommand(db: Db, input: ApplyCommandInput): Promise<CommandOutcome> {
  const tenant: Tenant = { merchantId: input.merchantId, mode: input.mode };
  const scoped = scopedDb(db, tenant);
  return scoped.$transaction(
    async (tx) => {
      await lockSubscription(tx, tenant, input.subscriptionId);
      const sub = await tx.subscription.findFirst({ where: { id: input.subscriptionId } });
      if (!sub) throw errors.resourceMissing(`No such subscription: '${input.subscriptionId}'`, 'id');
      const outcome: CommandOutcome = { objectId: objectIdOf(input.command), events: [], claimToCancel: null };
      if (await tx.subscriptionCommand.findFirst({ where: { id: input.commandId }, select: { id: true } })) return outcome;
      await tx.subscriptionCommand.create({
        data: { id: input.commandId, merchantId: tenant.merchantId, mode: tenant.mode, subscriptionId: sub.id, kind: input.command.kind },
      });
      const ctx: Ctx = { tx, tenant, sub, now: new Date(input.now), commandId: input.commandId, outcome };
      await run(ctx, input.command);
      return outcome;
    },
    STEP_TX,
  );
}

interface Ctx {
  tx: TenantDb;
  tenant: Tenant;
  sub: Subscription;
  now: Date;
  commandId: string;
  outcome: CommandOutcome;
}

async function emit(ctx: Ctx, type: 'subscription.updated' | 'subscription.canceled' | 'subscription.paused' | 'subscription.resumed', sub: Subscription): Promise<void> {
  ctx.outcome.events.push(await recordSubscriptionEvent(ctx.tx, ctx.tenant, type, sub));
}

function assertNotCanceled(sub: Subscription): void {
  if (sub.status === 'canceled') throw errors.invalidState('The subscription is canceled; it cannot be changed', 'id');
}

async function run(ctx: Ctx, cmd: ApplyCommandInput['command']): Promise<void> {
  const { tx, sub, now } = ctx;
  switch (cmd.kind) {
    case 'cancel': {
      if (sub.status === 'canceled') return; // canceling twice changes nothing
      if (cmd.atPeriodEnd) {
        if (sub.cancelAtPeriodEnd) return;
        const updated = await tx.subscription.update({ where: { id: sub.id }, data: { cancelAtPeriodEnd: true, canceledAt: now } });
        return emit(ctx, 'subscription.updated', updated);
      }
      const updated = await tx.subscription.update({
        where: { id: sub.id },
        data: { status: 'canceled', canceledAt: now, endedAt: now, pausedAt: null, statusBeforePause: null },
      });
      return emit(ctx, 'subscription.canceled', updated);
    }
    case 'uncancel': {
      if (!sub.cancelAtPeriodEnd || sub.status === 'canceled') throw errors.cannotUncancel('The subscription has no pending cancellation to undo', 'id');
      const updated = await tx.subscription.update({ where: { id: sub.id }, data: { cancelAtPeriodEnd: false, canceledAt: null } });
      return emit(ctx, 'subscription.updated', updated);
    }
    case 'pause': {
      if (sub.status !== 'active' && sub.status !== 'trialing') throw errors.cannotPause(`Only an active or trialing subscription can be paused; this one is ${sub.status}`, 'id');
      const updated = await tx.subscription.update({ where: { id: sub.id }, data: { status: 'paused', pausedAt: now, statusBeforePause: sub.status } });
      return emit(ctx, 'subscription.paused', updated);
    }
    case 'resume': {
      if (sub.status !== 'paused') throw errors.notPaused(`Only a paused subscription can be resumed; this one is ${sub.status}`, 'id');
      const back = sub.statusBeforePause === 'trialing' && sub.trialEnd !== null && sub.trialEnd > now ? 'trialing' : 'active';
      const updated = await tx.subscription.update({ where: { id: sub.id }, data: { status: back, pausedAt: null, statusBeforePause: null } });
      return emit(ctx, 'subscription.resumed', updated);
    }
    case 'update':
      return updateSubscription(ctx, cmd.changes);
    case 'add_item':
      return addItem(ctx, cmd.itemId, cmd.item, cmd.prorationBehavior);
    case 'update_item':
      return updateItem(ctx, cmd.itemId, cmd.changes, cmd.prorationBehavior);
    case 'delete_item':
      return deleteItem(ctx, cmd.itemId, cmd.prorationBehavior);
    case 'void_invoice':
      return voidInvoice(ctx, cmd.invoiceId);
  }
}

async function updateSubscription(ctx: Ctx, changes: SubscriptionChanges): Promise<void> {
  const { tx, sub } = ctx;
  const onlyMetadata = Object.keys(changes).every((k) => k === 'metadata');
  if (!onlyMetadata) assertNotCanceled(sub);
  const data: Record<string, unknown> = {};
  if (changes.cancel_at_period_end !== undefined && changes.cancel_at_period_end !== sub.cancelAtPeriodEnd) {
    data.cancelAtPeriodEnd = changes.cancel_at_period_end;
    data.canceledAt = changes.cancel_at_period_end ? ctx.now : null;
  }
  if (changes.discount !== undefined) {
    if (changes.discount === null) {
      data.discount = Prisma.DbNull;
      data.discountStart = null;
    } else {
      data.discount = parseDiscount(changes.discount);
      // From the next invoice on: the one at trial end, or at the current period's end.
      data.discountStart = sub.status === 'trialing' && sub.trialEnd ? sub.trialEnd : sub.currentPeriodEnd;
    }
  }
  if (changes.collection_method !== undefined || changes.days_until_due !== undefined) {
    const method = changes.collection_method ?? sub.collectionMethod;
    const customer = await tx.customer.findFirst({ where: { id: sub.customerId } });
    if (!customer) throw errors.invalidState('The subscription\'s customer is gone', 'customer');
    const days = changes.days_until_due !== undefined ? changes.days_until_due : method === sub.collectionMethod ? sub.daysUntilDue : undefined;
    data.collectionMethod = method;
    data.daysUntilDue = await checkCollection(tx, customer, method, sub.currency, days);
  }
  if (changes.metadata !== undefined) data.metadata = mergedMetadata(sub.metadata as Metadata, changes.metadata, 'metadata');
  if (Object.keys(data).length === 0) return;
  const updated = await tx.subscription.update({ where: { id: sub.id }, data: data as never });
  await emit(ctx, 'subscription.updated', updated);
}

function mergedMetadata(existing: Metadata, patch: unknown, param: string): Metadata {
  const problems = validateMetadataPatch(patch);
  if (problems.length > 0) throw errors.validationFailed(problems[0]!.message, param);
  const merged = mergeMetadataPatch(existing ?? {}, patch as Record<string, string | null> | null);
  return metadataOrThrow(merged, param);
}

/** Amount of a licensed item for a whole period. */
function fullPeriodAmount(price: Parameters<typeof priceTerms>[0], quantity: number): number {
  const t = priceTerms(price);
  return priceAmount({ unit_amount: t.unitAmount, tiers_mode: t.tiersMode, tiers: t.tiers }, quantity, 0).amount;
}

/**
 * Proration items (pending invoice items of the subscription) for a licensed change at `now`:
 * a credit for the unused time of the old amount and a charge for the remaining time of the new
 * one. Only while the subscription bills (active, past_due): a trial is free and a paused or
 * unpaid subscription bills nothing. Then `always_invoice` puts them on an invoice at once.
 */
async function prorate(ctx: Ctx, behavior: ProrationBehavior, change: { oldAmount: number; newAmount: number; label: (kind: 'credit' | 'charge') => string }): Promise<void> {
  const { tx, tenant, sub, now } = ctx;
  if (behavior === 'none') return;
  if (sub.status !== 'active' && sub.status !== 'past_due') return;
  if (now < sub.currentPeriodStart || now >= sub.currentPeriodEnd) return;
  const { credit, charge } = prorationLines({
    oldAmountForFullPeriod: change.oldAmount,
    newAmountForFullPeriod: change.newAmount,
    periodStart: sub.currentPeriodStart,
    periodEnd: sub.currentPeriodEnd,
    changeAt: now,
  });
  // Ids in order (credit, then charge): rows of one transaction share created_at.
  const idBase = Date.now();
  for (const [i, [kind, line]] of ([['credit', credit], ['charge', charge]] as const).entries()) {
    if (line.amount === 0) continue;
    await tx.invoiceItem.create({
      data: {
        id: newId('invoiceItem', idBase + i),
        merchantId: tenant.merchantId,
        mode: tenant.mode,
        customerId: sub.customerId,
        subscriptionId: sub.id,
        amount: BigInt(line.amount),
        quantity: 1,
        currency: sub.currency,
        description: change.label(kind),
        proration: true,
        periodStart: line.period_start,
        periodEnd: line.period_end,
        metadata: {},
      },
    });
  }
  if (behavior === 'always_invoice') {
    await buildSubscriptionInvoice(tx, tenant, {
      subscription: sub,
      billingReason: 'subscription_update',
      keyPart: ctx.commandId,
      discountBoundary: null,
      period: { start: now, end: sub.currentPeriodEnd },
      openingPeriod: { start: now, end: sub.currentPeriodEnd },
      closingPeriod: null,
      pendingScope: 'subscription',
    });
  }
}

async function productName(tx: TenantDb, productId: string): Promise<string> {
  const p = await tx.product.findFirst({ where: { id: productId }, select: { name: true } });
  return p?.name ?? productId;
}

async function addItem(ctx: Ctx, itemId: string, item: { price: string; quantity?: number; credit_rollover?: boolean; included_units?: number | null; metadata?: unknown }, behavior: ProrationBehavior): Promise<void> {
  const { tx, tenant, sub, now } = ctx;
  assertNotCanceled(sub);
  const current = await itemsOf(tx, sub.id);
  const [priced] = await resolveItems(tx, [item], () => null, { hasRecurring: current.length > 0 });
  checkItemSet([priced!], { currency: sub.currency, interval: sub.interval, intervalCount: sub.intervalCount, priceIds: current.map((i) => i.priceId) }, 'price');
  const metered = priced!.terms.usageType === 'metered';
  const quantity = metered ? 1 : (item.quantity ?? 1);
  const created = await tx.subscriptionItem.create({
    data: {
      id: itemId,
      merchantId: tenant.merchantId,
      mode: tenant.mode,
      subscriptionId: sub.id,
      priceId: priced!.price.id,
      quantity,
      creditRollover: item.credit_rollover ?? false,
      includedUnits: item.included_units === undefined || item.included_units === null ? null : BigInt(item.included_units),
      metadata: metadataOrThrow(item.metadata),
    },
  });
  if (!metered) {
    const name = await productName(tx, priced!.price.productId);
    await prorate(ctx, behavior, {
      oldAmount: 0,
      newAmount: fullPeriodAmount(priced!.price, quantity),
      label: () => `Remaining time on ${quantity} × ${name} after ${now.toISOString()}`,
    });
  }
  await emit(ctx, 'subscription.updated', await tx.subscription.findFirstOrThrow({ where: { id: sub.id } }));
  void created;
}

async function liveItem(ctx: Ctx, itemId: string): Promise<SubscriptionItem> {
  const item = await ctx.tx.subscriptionItem.findFirst({ where: { id: itemId, subscriptionId: ctx.sub.id, deletedAt: null } });
  if (!item) throw errors.resourceMissing(`No such subscription item: '${itemId}'`, 'id');
  return item;
}

async function updateItem(
  ctx: Ctx,
  itemId: string,
  changes: { quantity?: number; credit_rollover?: boolean; included_units?: number | null; metadata?: Record<string, string | null> | null },
  behavior: ProrationBehavior,
): Promise<void> {
  const { tx, sub, now } = ctx;
  assertNotCanceled(sub);
  const item = await liveItem(ctx, itemId);
  const price = await tx.price.findFirst({ where: { id: item.priceId } });
  if (!price) throw errors.invalidState(`The item's price '${item.priceId}' is gone`, 'id');
  const metered = price.recurringUsageType === 'metered';
  const data: Record<string, unknown> = {};
  if (changes.quantity !== undefined && changes.quantity !== item.quantity) {
    if (metered) throw errors.validationFailed('quantity is not used for metered prices (usage comes from the meter)', 'quantity');
    data.quantity = changes.quantity;
  }
  if (changes.credit_rollover !== undefined) {
    if (!metered && changes.credit_rollover) throw errors.validationFailed('credit_rollover applies only to items with a metered price', 'credit_rollover');
    data.creditRollover = changes.credit_rollover;
  }
  if (changes.included_units !== undefined) {
    if (!metered && changes.included_units !== null) throw errors.validationFailed('included_units applies only to items with a metered price', 'included_units');
    data.includedUnits = changes.included_units === null ? null : BigInt(changes.included_units);
  }
  if (changes.metadata !== undefined) data.metadata = mergedMetadata(item.metadata as Metadata, changes.metadata, 'metadata');
  if (Object.keys(data).length === 0) return;
  await tx.subscriptionItem.update({ where: { id: item.id }, data: data as never });
  if (data.quantity !== undefined) {
    const name = await productName(tx, price.productId);
    const q = data.quantity as number;
    await prorate(ctx, behavior, {
      oldAmount: fullPeriodAmount(price, item.quantity),
      newAmount: fullPeriodAmount(price, q),
      label: (kind) =>
        kind === 'credit' ? `Unused time on ${item.quantity} × ${name} after ${now.toISOString()}` : `Remaining time on ${q} × ${name} after ${now.toISOString()}`,
    });
  }
  await emit(ctx, 'subscription.updated', await tx.subscription.findFirstOrThrow({ where: { id: sub.id } }));
}

async function deleteItem(ctx: Ctx, itemId: string, behavior: ProrationBehavior): Promise<void> {
  const { tx, sub, now } = ctx;
  assertNotCanceled(sub);
  const item = await liveItem(ctx, itemId);
  const count = await tx.subscriptionItem.count({ where: { subscriptionId: sub.id, deletedAt: null } });
  if (count <= 1) throw errors.invalidSubscription('A subscription needs at least one item; cancel the subscription instead', 'id');
  await tx.subscriptionItem.update({ where: { id: item.id }, data: { deletedAt: now } });
  const price = await tx.price.findFirst({ where: { id: item.priceId } });
  if (price && price.recurringUsageType !== 'metered') {
    const name = await productName(tx, price.productId);
    await prorate(ctx, behavior, {
      oldAmount: fullPeriodAmount(price, item.quantity),
      newAmount: 0,
      label: () => `Unused time on ${item.quantity} × ${name} after ${now.toISOString()}`,
    });
  }
  await emit(ctx, 'subscription.updated', await tx.subscription.findFirstOrThrow({ where: { id: sub.id } }));
}

async function voidInvoice(ctx: Ctx, invoiceId: string): Promise<void> {
  const { tx, tenant, sub, now } = ctx;
  const inv = await tx.invoice.findFirst({ where: { id: invoiceId, subscriptionId: sub.id } });
  if (!inv) throw errors.resourceMissing(`No such invoice: '${invoiceId}'`, 'id');
  if (inv.status === 'void') return;
  if (inv.status === 'paid') throw errors.invalidState('A paid invoice cannot be voided (refund its payment instead)', 'id');
  const voided = await tx.invoice.update({ where: { id: inv.id }, data: { status: 'void', voidedAt: now, nextPaymentAttemptAt: null } });
  ctx.outcome.events.push(await recordInvoiceVoided(tx, tenant, voided));
  const claim = await tx.invoiceBankClaim.findFirst({ where: { invoiceId: inv.id } });
  if (claim) ctx.outcome.claimToCancel = { invoiceId: inv.id, claimId: claim.claimId };
  const r = await refreshCollectionStatus(tx, tenant, sub, now);
  ctx.outcome.events.push(...r.events);
}
