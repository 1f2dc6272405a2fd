// The ledger's invariants (docs/ledger.md), checked against the database after any sequence of
// money events:
//   1. every posting balances (Σ debit = Σ credit), and every entry has exactly one side;
//   2. each customer's accounts_receivable balance = Σ amount_remaining of all their invoices
//      (src/billing/invoice-amounts.ts: open invoices owe due − paid; draft, paid, void and
//      uncollectible invoices owe 0);
//   3. revenue (revenue accounts less discounts) = Σ finalized, non-void invoices' (total − VAT)
//      − Σ credit notes' (amount − VAT);
//   4. VAT payable per rate = Σ invoices' VAT of that rate − Σ credit notes' VAT of that rate.
import assert from 'node:assert/strict';
import type { Db } from '../../src/db/client';
import { amountRemaining, type InvoiceStatusName } from '../../src/billing/invoice-amounts';
import { amountRemainingSql } from '../../src/domain/invoices/amount-remaining-sql';

export interface LedgerInvariantReport {
  postings: number;
  entries: number;
  receivable: Record<string, number>;
  revenue: number;
  vatPayable: Record<string, number>;
}

export async function assertLedgerInvariants(db: Db, merchantId: string, mode: 'test' | 'live' = 'test'): Promise<LedgerInvariantReport> {
  const unbalanced = await db.$queryRaw<Array<{ posting_id: string }>>`
    SELECT posting_id FROM ledger_entries WHERE merchant_id = ${merchantId} AND mode = ${mode}::"Mode"
     GROUP BY posting_id HAVING SUM(debit) <> SUM(credit)`;
  assert.deepEqual(unbalanced, [], 'every posting balances');
  const oneSided = await db.$queryRaw<Array<{ n: number }>>`
    SELECT count(*)::int AS n FROM ledger_entries WHERE merchant_id = ${merchantId} AND mode = ${mode}::"Mode" AND ((debit = 0) = (credit = 0) OR debit < 0 OR credit < 0)`;
  assert.equal(oneSided[0]!.n, 0, 'every entry has exactly one positive side');
  const counts = await db.$queryRaw<Array<{ postings: number; entries: number }>>`
    SELECT (SELECT count(*)::int FROM ledger_postings WHERE merchant_id = ${merchantId} AND mode = ${mode}::"Mode") AS postings,
           (SELECT count(*)::int FROM ledger_entries WHERE merchant_id = ${merchantId} AND mode = ${mode}::"Mode") AS entries`;

  const ar = await db.$queryRaw<Array<{ customer_id: string | null; balance: bigint }>>`
    SELECT customer_id, SUM(debit - credit)::bigint AS balance FROM ledger_entries
     WHERE merchant_id = ${merchantId} AND mode = ${mode}::"Mode" AND account = 'accounts_receivable'
     GROUP BY customer_id`;
  // Σ amount_remaining (the invoice object's rule, src/billing/invoice-amounts.ts) over every
  // invoice of the customer, whatever its status: void and written-off invoices count 0.
  const invoices = await db.$queryRaw<Array<{ customer_id: string | null; status: InvoiceStatusName; amount_due: bigint; amount_paid: bigint }>>`
    SELECT customer_id, status::text AS status, amount_due, amount_paid FROM invoices
     WHERE merchant_id = ${merchantId} AND mode = ${mode}::"Mode"`;
  const remaining = new Map<string | null, bigint>();
  for (const i of invoices) {
    remaining.set(i.customer_id, (remaining.get(i.customer_id) ?? 0n) + BigInt(amountRemaining({ status: i.status, amountDue: i.amount_due, amountPaid: i.amount_paid })));
  }
  const nonZero = (rows: Array<{ customer_id: string | null; v: bigint }>) =>
    Object.fromEntries(rows.filter((r) => BigInt(r.v) !== 0n).map((r) => [r.customer_id ?? '(none)', Number(r.v)]));
  const receivable = nonZero(ar.map((r) => ({ customer_id: r.customer_id, v: r.balance })));
  assert.deepEqual(receivable, nonZero([...remaining].map(([customer_id, v]) => ({ customer_id, v }))), 'receivable per customer = Σ amount_remaining of all their invoices');
  // The same sum through the SQL form of the rule (dashboard aggregates use it).
  const sqlRemaining = await db.$queryRaw<Array<{ customer_id: string | null; v: bigint }>>`
    SELECT customer_id, SUM(${amountRemainingSql()})::bigint AS v FROM invoices
     WHERE merchant_id = ${merchantId} AND mode = ${mode}::"Mode" GROUP BY customer_id`;
  assert.deepEqual(nonZero(sqlRemaining), receivable, 'the SQL amount_remaining agrees with the receivable per customer');
  const rev = await db.$queryRaw<Array<{ revenue: bigint | null }>>`
    SELECT SUM(credit - debit)::bigint AS revenue FROM ledger_entries
     WHERE merchant_id = ${merchantId} AND mode = ${mode}::"Mode" AND (account = 'revenue' OR account LIKE 'revenue:%' OR account = 'discounts')`;
  const inv = await db.$queryRaw<Array<{ net: bigint | null }>>`
    SELECT SUM(total - vat_amount)::bigint AS net FROM invoices
     WHERE merchant_id = ${merchantId} AND mode = ${mode}::"Mode" AND status IN ('open', 'paid', 'uncollectible') AND finalized_at IS NOT NULL`;
  const cn = await db.$queryRaw<Array<{ net: bigint | null }>>`
    SELECT SUM(amount - vat_amount)::bigint AS net FROM credit_notes WHERE merchant_id = ${merchantId} AND mode = ${mode}::"Mode"`;
  const revenue = Number(rev[0]!.revenue ?? 0n);
  assert.equal(revenue, Number(inv[0]!.net ?? 0n) - Number(cn[0]!.net ?? 0n), 'revenue = invoice totals less VAT, less credit notes');

  const vatLedger = await db.$queryRaw<Array<{ account: string; balance: bigint }>>`
    SELECT account, SUM(credit - debit)::bigint AS balance FROM ledger_entries
     WHERE merchant_id = ${merchantId} AND mode = ${mode}::"Mode" AND account LIKE 'vat_payable:%' GROUP BY account`;
  const vatDocs = await db.$queryRaw<Array<{ rate: string; vat: bigint }>>`
    SELECT rate, SUM(vat)::bigint AS vat FROM (
      SELECT r->>'rate' AS rate, (r->>'vat')::bigint AS vat FROM invoices i, jsonb_array_elements(i.vat_breakdown) r
       WHERE i.merchant_id = ${merchantId} AND i.mode = ${mode}::"Mode" AND i.status IN ('open', 'paid', 'uncollectible') AND i.finalized_at IS NOT NULL
      UNION ALL
      SELECT r->>'rate', -(r->>'vat')::bigint FROM credit_notes c, jsonb_array_elements(c.vat_breakdown) r
       WHERE c.merchant_id = ${merchantId} AND c.mode = ${mode}::"Mode"
    ) x GROUP BY rate`;
  const vatPayable = Object.fromEntries(vatLedger.filter((r) => BigInt(r.balance) !== 0n).map((r) => [r.account.slice('vat_payable:'.length), Number(r.balance)]));
  assert.deepEqual(
    vatPayable,
    Object.fromEntries(vatDocs.filter((r) => BigInt(r.vat) !== 0n).map((r) => [r.rate, Number(r.vat)])),
    'VAT payable per rate = invoices less credit notes',
  );

  return { postings: counts[0]!.postings, entries: counts[0]!.entries, receivable, revenue, vatPayable };
}
