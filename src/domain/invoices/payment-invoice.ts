// The invoice the service generates for every payment: created `open` (finalized, numbered)
// with the payment and one line, `paid` when the payment succeeds, `void` when the payment is
// canceled (docs/invoices.md). One per payment: UNIQUE(merchant_id, mode, payment_key).
import type { Tenant, TenantDb } from '../../db/tenancy';
import type { Invoice, InvoiceLine, Payment, Prisma } from '../../generated/prisma/client';
import type { VatBreakdownRow } from '../../billing';
import { newId } from '../../ids';
import { takeInvoiceNumber } from './invoice-number';
import { applyVat } from '../../billing';
import { getVatSettings } from '../vat/vat-settings';
import { revenueAccount } from '../ledger/post-ledger';
import { postInvoiceFinalized } from '../ledger/invoice-postings';

export interface InvoiceWithLines {
  invoice: Invoice;
  lines: InvoiceLine[];
}

export function paymentLineDescription(p: Pick<Payment, 'id' | 'description'>): string {
  return p.description && p.description.length > 0 ? p.description : `Payment ${p.id}`;
}

/**
 * The amount charged is what the customer pays, so a payment's line always INCLUDES VAT at the
 * merchant's default rate, whatever the prices-include-VAT setting (docs/vat.md).
 */
export async function createPaymentInvoice(db: TenantDb, tenant: Tenant, payment: Payment, now: Date): Promise<InvoiceWithLines> {
  const id = newId('invoice');
  const number = await takeInvoiceNumber(db, tenant);
  const settings = await getVatSettings(db);
  const vat = applyVat({ country: settings.country, pricesIncludeVat: true, discount: 0, lines: [{ amount: Number(payment.amount), rate: settings.defaultVatRate }] });
  const vatLine = vat.lines[0]!;
  const invoice = await db.invoice.create({
    data: {
      id,
      merchantId: tenant.merchantId,
      mode: tenant.mode,
      customerId: payment.customerId,
      paymentId: payment.id,
      paymentKey: payment.id,
      number,
      status: 'open',
      billingReason: 'payment',
      collectionMethod: 'charge_automatically',
      currency: payment.currency,
      subtotal: payment.amount,
      total: payment.amount,
      amountDue: payment.amount,
      amountPaid: 0n,
      vatAmount: BigInt(vat.vat),
      pricesIncludeVat: true,
      vatBreakdown: vatBreakdownJson(vat.breakdown),
      periodStart: now,
      periodEnd: now,
      finalizedAt: now,
      metadata: {},
      createdAt: now,
    },
  });
  const line = await db.invoiceLine.create({
    data: {
      id: newId('invoiceLine'),
      merchantId: tenant.merchantId,
      mode: tenant.mode,
      invoiceId: id,
      position: 1,
      kind: 'payment',
      description: paymentLineDescription(payment),
      quantity: 1n,
      unitAmount: payment.amount,
      amount: payment.amount,
      currency: payment.currency,
      vatRate: vatLine.rate,
      vatBasisPoints: vatLine.basisPoints,
      vatAmount: BigInt(vatLine.vat),
      ledgerAccount: revenueAccount(null),
    },
  });
  await postInvoiceFinalized(db, tenant, invoice, now, [line]);
  return { invoice, lines: [line] };
}

/** The payment's own invoice, or null (every payment made through createPayment has one). */
export async function findPaymentInvoice(db: TenantDb, paymentId: string): Promise<InvoiceWithLines | null> {
  const invoice = await db.invoice.findFirst({ where: { paymentKey: paymentId } });
  if (!invoice) return null;
  const lines = await db.invoiceLine.findMany({ where: { invoiceId: invoice.id }, orderBy: { position: 'asc' } });
  return { invoice, lines };
}

/**
 * The invoice of each payment, for presenting payments: a payment's own invoice (payment_key),
 * or the subscription invoice it collects (invoices.payment_id), so GET /v1/payments/{id}
 * links its invoice for every kind of payment, as its payment.* events do.
 */
export async function paymentInvoiceIds(db: TenantDb, paymentIds: string[]): Promise<Map<string, string>> {
  if (paymentIds.length === 0) return new Map();
  const rows = await db.invoice.findMany({
    where: { OR: [{ paymentKey: { in: paymentIds } }, { paymentId: { in: paymentIds } }] },
    select: { id: true, paymentKey: true, paymentId: true },
  });
  const out = new Map<string, string>();
  for (const r of rows) {
    const paymentId = r.paymentKey ?? r.paymentId;
    if (paymentId !== null && !out.has(paymentId)) out.set(paymentId, r.id);
  }
  return out;
}

/** The invoice's stored VAT breakdown (snake_case JSON, as presented). */
export function vatBreakdownJson(rows: readonly VatBreakdownRow[]): Prisma.InputJsonValue {
  return rows.map((r) => ({ rate: r.rate, basis_points: r.basisPoints, net: r.net, vat: r.vat, gross: r.gross }));
}
