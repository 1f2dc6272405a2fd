// Ledger entries and the trial balance as the API returns them (docs/ledger.md).
import type { LedgerEntry } from '../generated/prisma/client';

export interface TrialBalanceAccount {
  account: string;
  debit: bigint;
  credit: bigint;
}

export interface TrialBalance {
  asOf: Date;
  customerId: string | null;
  currencies: Array<{ currency: string; accounts: TrialBalanceAccount[]; totalDebit: bigint; totalCredit: bigint }>;
}

export function presentLedgerEntry(e: LedgerEntry & { posting?: { kind: string } }) {
  return {
    id: e.id,
    object: 'ledger_entry',
    posting: e.postingId,
    kind: e.posting?.kind ?? null,
    account: e.account,
    debit: Number(e.debit),
    credit: Number(e.credit),
    currency: e.currency,
    invoice: e.invoiceId,
    customer: e.customerId,
    vat_rate: e.vatRate,
    occurred_at: e.occurredAt.toISOString(),
    created_at: e.createdAt.toISOString(),
  };
}

export function presentTrialBalance(tb: TrialBalance) {
  return {
    object: 'trial_balance',
    as_of: tb.asOf.toISOString(),
    customer: tb.customerId,
    currencies: tb.currencies.map((c) => ({
      currency: c.currency,
      accounts: c.accounts.map((a) => ({ account: a.account, debit: Number(a.debit), credit: Number(a.credit), balance: Number(a.debit - a.credit) })),
      total_debit: Number(c.totalDebit),
      total_credit: Number(c.totalCredit),
    })),
  };
}
