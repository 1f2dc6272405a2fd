// The one way into the ledger (docs/ledger.md): a posting and all its entries in ONE SQL
// statement, inside the caller's transaction, so the ledger changes if and only if the state
// change commits. The posting is checked here (entries net per account, debits = credits) and
// again by the database (trigger ledger_entries_check refuses an unbalanced posting). A second
// posting with the same source key (`${kind}:${sourceId}`) is a no-op. When the merchant has a
// current accounting link, the same statement queues the posting for the sync (docs/accounting.md).
import { Prisma } from '../../generated/prisma/client';
import type { Tenant, TenantDb } from '../../db/tenancy';
import { newId } from '../../ids';

export const POSTING_KINDS = ['invoice_finalized', 'invoice_paid', 'invoice_voided', 'invoice_written_off', 'write_off_reversed', 'credit_note', 'refund'] as const;
export type PostingKind = (typeof POSTING_KINDS)[number];

/** Ledger accounts of the service's own chart (docs/ledger.md). */
export const ACCOUNTS = {
  receivable: 'accounts_receivable',
  revenue: 'revenue',
  discounts: 'discounts',
  badDebt: 'bad_debt',
  cardClearing: 'card_clearing',
  bankClaimClearing: 'bank_claim_clearing',
} as const;

export function revenueAccount(accountingCode: string | null | undefined): string {
  return accountingCode ? `revenue:${accountingCode}` : ACCOUNTS.revenue;
}

export function vatPayableAccount(rate: string): string {
  return `vat_payable:${rate}`;
}

export type PaymentMethodKind = 'card' | 'bank_claim';

export function clearingAccount(method: PaymentMethodKind): string {
  return method === 'card' ? ACCOUNTS.cardClearing : ACCOUNTS.bankClaimClearing;
}

/** One movement: amount > 0 debits the account, amount < 0 credits it. */
export interface LedgerMovement {
  account: string;
  amount: bigint;
  vatRate?: string | null;
}

export interface PostingInput {
  kind: PostingKind;
  sourceId: string;
  invoiceId?: string | null;
  customerId?: string | null;
  paymentId?: string | null;
  creditNoteId?: string | null;
  refundId?: string | null;
  currency: string;
  /** The event's headline amount (≥ 0). */
  amount: bigint;
  method?: PaymentMethodKind | null;
  occurredAt: Date;
  movements: LedgerMovement[];
}

export interface BalancedEntry {
  account: string;
  vatRate: string | null;
  debit: bigint;
  credit: bigint;
}

export class UnbalancedPostingError extends Error {
  constructor(
    readonly debit: bigint,
    readonly credit: bigint,
    kind: string,
    sourceId: string,
  ) {
    super(`ledger posting ${kind}:${sourceId} does not balance: debit ${debit} ≠ credit ${credit}`);
    this.name = 'UnbalancedPostingError';
  }
}

/**
 * Nets the movements per (account, VAT rate), drops zeros, and refuses an unbalanced set.
 * Order: debits first, then credits, each in first-seen order.
 */
export function balancedEntries(input: Pick<PostingInput, 'kind' | 'sourceId' | 'movements'>): BalancedEntry[] {
  const net = new Map<string, { account: string; vatRate: string | null; amount: bigint }>();
  for (const m of input.movements) {
    if (typeof m.amount !== 'bigint') throw new TypeError('ledger movement amounts are bigint');
    const key = `${m.account}\u0000${m.vatRate ?? ''}`;
    const cur = net.get(key) ?? { account: m.account, vatRate: m.vatRate ?? null, amount: 0n };
    cur.amount += m.amount;
    net.set(key, cur);
  }
  const rows = [...net.values()].filter((r) => r.amount !== 0n);
  const debit = rows.reduce((s, r) => s + (r.amount > 0n ? r.amount : 0n), 0n);
  const credit = rows.reduce((s, r) => s + (r.amount < 0n ? -r.amount : 0n), 0n);
  if (debit !== credit) throw new UnbalancedPostingError(debit, credit, input.kind, input.sourceId);
  const toEntry = (r: { account: string; vatRate: string | null; amount: bigint }): BalancedEntry =>
    r.amount > 0n ? { account: r.account, vatRate: r.vatRate, debit: r.amount, credit: 0n } : { account: r.account, vatRate: r.vatRate, debit: 0n, credit: -r.amount };
  return [...rows.filter((r) => r.amount > 0n), ...rows.filter((r) => r.amount < 0n)].map(toEntry);
}

/**
 * The posting as data-modifying CTEs named `${name}_p`, `${name}_s`, `${name}_e` (null when it
 * moves nothing), for a caller that writes it in the same statement as the state change
 * (src/domain/subscriptions/steps/). postLedger below runs it alone.
 */
export function postingCtes(tenant: Tenant, input: PostingInput, name: string): Prisma.Sql | null {
  const entries = balancedEntries(input);
  if (entries.length === 0) return null;
  const postingId = newId('ledgerPosting');
  const sourceKey = `${input.kind}:${input.sourceId}`;
  const values = Prisma.join(entries.map((e) => Prisma.sql`(${newId('ledgerEntry')}, ${e.account}, ${e.debit}::bigint, ${e.credit}::bigint, ${e.vatRate}::text)`));
  const [p, s, e] = [`${name}_p`, `${name}_s`, `${name}_e`].map((n) => Prisma.raw(n));
  return Prisma.sql`
    ${p} AS (
      INSERT INTO ledger_postings (id, merchant_id, mode, kind, source_key, invoice_id, customer_id, payment_id, credit_note_id, refund_id, currency, amount, method, occurred_at)
      VALUES (${postingId}, ${tenant.merchantId}, ${tenant.mode}::"Mode", ${input.kind}, ${sourceKey}, ${input.invoiceId ?? null}, ${input.customerId ?? null},
              ${input.paymentId ?? null}, ${input.creditNoteId ?? null}, ${input.refundId ?? null}, ${input.currency}, ${input.amount}::bigint,
              ${input.method ?? null}, ${input.occurredAt})
      ON CONFLICT (merchant_id, mode, source_key) DO NOTHING
      RETURNING id, seq
    ), ${s} AS (
      INSERT INTO accounting_sync_records (id, merchant_id, mode, link_id, posting_id, seq)
      SELECT ${newId('accountingSyncRecord')}, l.merchant_id, l.mode, l.id, ${p}.id, ${p}.seq
        FROM ${p} JOIN accounting_links l ON l.current_key = ${`${tenant.merchantId}:${tenant.mode}`}
    ), ${e} AS (
      INSERT INTO ledger_entries (id, merchant_id, mode, posting_id, account, debit, credit, currency, invoice_id, customer_id, vat_rate, occurred_at)
      SELECT v.id, ${tenant.merchantId}, ${tenant.mode}::"Mode", ${p}.id, v.account, v.debit, v.credit, ${input.currency},
             ${input.invoiceId ?? null}, ${input.customerId ?? null}, v.vat_rate, ${input.occurredAt}
        FROM ${p} CROSS JOIN (VALUES ${values}) AS v(id, account, debit, credit, vat_rate)
      RETURNING 1
    )`;
}

/** Several postings' CTEs, joined for one WITH clause (null when none moves anything). */
export function postingsCtes(tenant: Tenant, inputs: readonly PostingInput[], name: string): Prisma.Sql | null {
  const parts = inputs.map((input, i) => postingCtes(tenant, input, `${name}${i}`)).filter((x): x is Prisma.Sql => x !== null);
  return parts.length > 0 ? Prisma.join(parts, ',') : null;
}

/** Writes the posting; returns its id, or null when it moves nothing or was already posted. */
export async function postLedger(db: TenantDb, tenant: Tenant, input: PostingInput): Promise<string | null> {
  const ctes = postingCtes(tenant, input, 'lp');
  if (ctes === null) return null;
  const rows = await db.$queryRaw<Array<{ id: string }>>`WITH ${ctes}, n AS (SELECT count(*)::int AS n FROM lp_e) SELECT lp_p.id FROM lp_p, n WHERE n.n > 0`;
  return rows[0]?.id ?? null;
}
