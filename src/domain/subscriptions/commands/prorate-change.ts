// Proration of a licensed item change (docs/subscriptions.md "Items and proration"), shared by
// the item commands.
import type { TenantDb } from '../../../db/tenancy';
import { priceAmount, prorationLines } from '../../../billing';
import { newId } from '../../../ids';
import type { ProrationBehavior } from '../../../contracts/subscriptions';
import { priceTerms } from '../../prices/price-for-subscription';
import { buildSubscriptionInvoice } from '../build-invoice';
import type { CommandContext } from './command-context';

/** Amount of a licensed item for a whole period. */
export function fullPeriodAmount(price: Parameters<typeof priceTerms>[0], quantity: number): number {
  const t = priceTerms(price);
  return priceAmount({ unit_amount: t.unitAmount, tiers_mode: t.tiersMode, tiers: t.tiers }, quantity, 0).amount;
}

/**
 * The product's name (for the lines' descriptions) and the VAT rate identifier of the price: its
 * own, else its product's, else null (the merchant's default when the invoice is built, as for
 * the item's own lines; docs/vat.md). A proration line inherits this rate.
 */
export async function pricedFacts(tx: TenantDb, price: { productId: string; vatRate: string | null }): Promise<{ name: string; vatRate: string | null }> {
  const p = await tx.product.findFirst({ where: { id: price.productId }, select: { name: true, vatRate: true } });
  return { name: p?.name ?? price.productId, vatRate: price.vatRate ?? p?.vatRate ?? null };
}

/**
 * Proration items (pending invoice items of the subscription) for a licensed change at `now`:
 * a credit for the unused time of the old amount and a charge for the remaining time of the new
 * one, each at the VAT rate of the price it prorates (docs/vat.md). Only while the subscription bills (active, past_due): a trial is free and a paused or
 * unpaid subscription bills nothing. Then `always_invoice` puts them on an invoice at once.
 */
export async function prorateChange(
  ctx: CommandContext,
  behavior: ProrationBehavior,
  change: {
    oldAmount: number;
    newAmount: number;
    /** VAT rate of the old price (the credit's) and of the new one (the charge's); null: the default. */
    oldVatRate: string | null;
    newVatRate: string | null;
    label: (kind: 'credit' | 'charge') => string;
  },
): Promise<void> {
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
  for (const [i, [kind, line]] of (
    [
      ['credit', credit],
      ['charge', charge],
    ] as const
  ).entries()) {
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
        vatRate: kind === 'credit' ? change.oldVatRate : change.newVatRate,
        periodStart: line.period_start,
        periodEnd: line.period_end,
        metadata: {},
        createdAt: now, // the subscription's time (its clock's on a test clock)
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
      issuedAt: now,
    });
  }
}
