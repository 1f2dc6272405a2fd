// A credit note for a refund against a paid invoice, with its VAT, and the ledger postings of
// both (docs/vat.md "Credit notes", docs/ledger.md). Runs inside the refund's transaction.
//   credit_note  Dr revenue accounts (net share) · Dr vat_payable:<rate> · Cr accounts_receivable
//   refund       Dr accounts_receivable · Cr card_clearing
// The credited amount is split over the invoice's VAT rates in proportion to their gross amounts
// (a full refund returns exactly the invoice's VAT), and each rate's net share over the revenue
// accounts of that rate's lines in proportion to their net amounts.
import type { Tenant, TenantDb } from '../../db/tenancy';
import type { CreditNote, Invoice, Prisma, Refund } from '../../generated/prisma/client';
import { newId } from '../../ids';
import { allocateProportionally, creditNoteVat } from '../../billing';
import { ACCOUNTS, postLedger, vatPayableAccount, type LedgerMovement } from '../ledger/post-ledger';
import { lineNet } from '../ledger/invoice-postings';

export interface VatBreakdownJson {
  rate: string;
  basis_points: number;
  net: number;
  vat: number;
  gross: number;
}

export function readBreakdown(value: Prisma.JsonValue | null | undefined): VatBreakdownJson[] {
  return Array.isArray(value) ? (value as unknown as VatBreakdownJson[]) : [];
}

export async function issueCreditNote(db: TenantDb, tenant: Tenant, invoice: Invoice, refund: Refund, occurredAt: Date): Promise<CreditNote> {
  const amount = Number(refund.amount);
  const breakdown = readBreakdown(invoice.vatBreakdown);
  const groups = breakdown.length > 0 ? breakdown : [{ rate: 'exempt', basis_points: 0, net: Number(invoice.total), vat: 0, gross: Number(invoice.total) }];
  const shares = creditNoteVat(amount, groups).filter((g) => g.share.gross !== 0);
  const lines = await db.invoiceLine.findMany({ where: { invoiceId: invoice.id }, orderBy: { position: 'asc' } });

  const movements: LedgerMovement[] = [{ account: ACCOUNTS.receivable, amount: -refund.amount }];
  for (const g of shares) {
    const ofRate = lines.filter((l) => l.kind !== 'discount' && (l.vatRate ?? 'exempt') === g.rate);
    const byAccount = new Map<string, bigint>();
    for (const l of ofRate) {
      const account = l.ledgerAccount ?? ACCOUNTS.revenue;
      byAccount.set(account, (byAccount.get(account) ?? 0n) + lineNet(l, invoice.pricesIncludeVat));
    }
    const accounts = [...byAccount.entries()].filter(([, net]) => net > 0n);
    if (accounts.length === 0 || g.share.net < 0) {
      movements.push({ account: ACCOUNTS.revenue, amount: BigInt(g.share.net), vatRate: g.rate });
    } else {
      const parts = allocateProportionally(
        g.share.net,
        accounts.map(([, net]) => Number(net)),
      );
      accounts.forEach(([account], i) => movements.push({ account, amount: BigInt(parts[i]!), vatRate: g.rate }));
    }
    if (g.share.vat !== 0) movements.push({ account: vatPayableAccount(g.rate), amount: BigInt(g.share.vat), vatRate: g.rate });
  }

  const vatBreakdown = shares.map((g) => ({ rate: g.rate, basis_points: g.basis_points, net: g.share.net, vat: g.share.vat, gross: g.share.gross }));
  const creditNote = await db.creditNote.create({
    data: {
      id: newId('creditNote'),
      merchantId: tenant.merchantId,
      mode: tenant.mode,
      invoiceId: invoice.id,
      refundId: refund.id,
      amount: refund.amount,
      currency: refund.currency,
      reason: refund.reason,
      status: 'issued',
      vatAmount: BigInt(shares.reduce((s, g) => s + g.share.vat, 0)),
      vatBreakdown: vatBreakdown as unknown as Prisma.InputJsonValue,
      // Issued when the refund completes: its time (a test clock's time for a clock customer), so
      // the credit note and its document never predate the invoice they credit.
      createdAt: occurredAt,
    },
  });
  const common = { invoiceId: invoice.id, customerId: invoice.customerId, currency: refund.currency, amount: refund.amount, occurredAt };
  await postLedger(db, tenant, { kind: 'credit_note', sourceId: creditNote.id, creditNoteId: creditNote.id, refundId: refund.id, ...common, movements });
  await postLedger(db, tenant, {
    kind: 'refund',
    sourceId: refund.id,
    refundId: refund.id,
    creditNoteId: creditNote.id,
    paymentId: refund.paymentId,
    method: 'card',
    ...common,
    movements: [
      { account: ACCOUNTS.receivable, amount: refund.amount },
      { account: ACCOUNTS.cardClearing, amount: -refund.amount },
    ],
  });
  return creditNote;
}
