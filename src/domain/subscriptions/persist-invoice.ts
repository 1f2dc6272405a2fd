// Persist, the last part of building a subscription invoice (./build-invoice.ts): the assembled
// draft (./assemble-invoice.ts) written in the caller's transaction — the invoice and its lines in
// one statement, the pending invoice items attached to it, the items' rolled-over units, and the
// credit carried forward as new invoice items.
import type { Tenant, TenantDb } from '../../db/tenancy';
import { Prisma, type Invoice, type InvoiceLine } from '../../generated/prisma/client';
import { camelRow, jsonRows } from '../../db/raw-rows';
import { newId } from '../../ids';
import { vatBreakdownJson } from '../invoices/payment-invoice';
import type { BuildInvoiceInput } from './build-invoice-input';
import type { GatheredInvoiceInputs } from './gather-invoice-inputs';
import type { InvoiceDraft } from './assemble-invoice';

/** Writes the draft invoice; returns it and its lines in position order. */
export async function persistInvoiceDraft(
  db: TenantDb,
  tenant: Tenant,
  input: BuildInvoiceInput,
  key: string,
  gathered: GatheredInvoiceInputs,
  draft: InvoiceDraft,
): Promise<{ invoice: Invoice; lines: InvoiceLine[] }> {
  const sub = input.subscription;
  const invoiceId = newId('invoice');
  const wall = new Date();
  const built = await insertInvoiceWithLines(db, tenant, input, key, draft, invoiceId, wall);
  if (gathered.pending.length > 0) {
    await db.invoiceItem.updateMany({ where: { id: { in: gathered.pending.map((r) => r.id) }, invoiceId: null }, data: { invoiceId } });
  }
  for (const [itemId, units] of draft.rolloverOut) {
    await db.subscriptionItem.update({ where: { id: itemId }, data: { rolledOverUnits: units } });
  }
  const carried = draft.carried;
  for (const share of carried) {
    await db.invoiceItem.create({
      data: {
        id: newId('invoiceItem'),
        merchantId: tenant.merchantId,
        mode: tenant.mode,
        customerId: sub.customerId,
        subscriptionId: sub.id,
        amount: BigInt(share.amount),
        quantity: 1,
        currency: sub.currency,
        description: carried.length > 1 ? `Balance carried forward from invoice ${invoiceId}, ${share.rate} VAT` : `Credit carried forward from invoice ${invoiceId}`,
        proration: false,
        vatRate: share.rate,
        metadata: {},
        ...(input.issuedAt ? { createdAt: input.issuedAt } : {}),
      },
    });
  }
  return built;
}

/** The invoice and its lines in one statement (the lines' key to the invoice is checked at its end). */
async function insertInvoiceWithLines(
  db: TenantDb,
  tenant: Tenant,
  input: BuildInvoiceInput,
  key: string,
  draft: InvoiceDraft,
  invoiceId: string,
  wall: Date,
): Promise<{ invoice: Invoice; lines: InvoiceLine[] }> {
  const sub = input.subscription;
  const lineValues = draft.lines.map((l, i) => {
    const id = newId('invoiceLine');
    return Prisma.sql`(${id}, ${tenant.merchantId}, ${tenant.mode}::"Mode", ${invoiceId}, ${i + 1}::int, ${l.kind}, ${l.description}, ${l.quantity}::bigint,
      ${l.unitAmount}::bigint, ${l.amount}::bigint, ${sub.currency}, ${l.periodStart}::timestamptz, ${l.periodEnd}::timestamptz, ${l.priceId}::text,
      ${l.subscriptionItemId}::text, ${l.invoiceItemId}::text, ${l.proration}::boolean, ${l.vatRate}::text, ${l.vatBasisPoints}::int, ${l.vatAmount}::bigint,
      ${l.ledgerAccount}::text, ${l.details === null ? null : JSON.stringify(l.details)}::jsonb, ${wall}::timestamptz)`;
  });
  const rows = await db.$queryRaw<Array<Record<string, unknown>>>`
    WITH inv AS (
      INSERT INTO invoices (id, merchant_id, mode, customer_id, subscription_id, period_key, status, billing_reason, collection_method, currency,
                            subtotal, discount_amount, total, amount_due, amount_paid, vat_amount, prices_include_vat, vat_breakdown,
                            period_start, period_end, metadata, created_at, updated_at)
      VALUES (${invoiceId}, ${tenant.merchantId}, ${tenant.mode}::"Mode", ${sub.customerId}, ${sub.id}, ${key}, 'draft', ${input.billingReason}, ${sub.collectionMethod}::text,
              ${sub.currency}, ${draft.subtotal}::bigint, ${draft.discount}::bigint, ${draft.total}::bigint, ${draft.total}::bigint, 0,
              ${draft.vat}::bigint, ${draft.pricesIncludeVat}::boolean, ${JSON.stringify(vatBreakdownJson(draft.vatBreakdown))}::jsonb,
              ${input.period.start}::timestamptz, ${input.period.end}::timestamptz, '{}'::jsonb, ${input.issuedAt ?? wall}::timestamptz, ${wall}::timestamptz)
      RETURNING *
    ), lines AS (
      INSERT INTO invoice_lines (id, merchant_id, mode, invoice_id, position, kind, description, quantity, unit_amount, amount, currency, period_start, period_end,
                                 price_id, subscription_item_id, invoice_item_id, proration, vat_rate, vat_basis_points, vat_amount, ledger_account, details, created_at)
      VALUES ${Prisma.join(lineValues)}
      RETURNING *
    )
    SELECT inv.*, (SELECT json_agg(to_jsonb(l) ORDER BY l.position) FROM lines l) AS built_lines FROM inv`;
  const { built_lines: builtLines, ...invoiceRow } = rows[0]!;
  return { invoice: camelRow<Invoice>(invoiceRow), lines: jsonRows<InvoiceLine>('InvoiceLine', builtLines as Array<Record<string, unknown>> | null) };
}
