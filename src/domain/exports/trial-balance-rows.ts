// The trial balance of a period as CSV rows: per currency and account the balance before the
// period (opening), the period's debits and credits, and the balance at its end (closing), each
// balance signed as debit minus credit; then a total line per currency, whose period debits equal
// its period credits (every posting balances). Entries count by when they were recorded, as
// GET /v1/trial_balance counts them: the closing figures equal its answer with as_of = the end.
import type { Tenant, TenantDb } from '../../db/tenancy';
import type { Cell } from './export-tables';
import { formatMoney } from '../../billing/currency';
import type { ExportPeriod } from './period';

export const TRIAL_BALANCE_COLUMNS = [
  'line',
  'currency',
  'account',
  'opening_balance',
  'period_debit',
  'period_credit',
  'closing_balance',
  'closing_balance_formatted',
  'period_start',
  'period_end',
] as const;

export async function* trialBalanceRows(db: TenantDb, tenant: Tenant, period: ExportPeriod): AsyncGenerator<Cell[]> {
  // One row per currency and account: a few hundred at most, read at once.
  const rows = await db.$queryRaw<Array<{ currency: string; account: string; opening: bigint; debit: bigint; credit: bigint }>>`
    SELECT currency, account,
           COALESCE(SUM(debit - credit) FILTER (WHERE created_at < ${period.from}), 0)::bigint AS opening,
           COALESCE(SUM(debit) FILTER (WHERE created_at >= ${period.from}), 0)::bigint AS debit,
           COALESCE(SUM(credit) FILTER (WHERE created_at >= ${period.from}), 0)::bigint AS credit
      FROM ledger_entries
     WHERE merchant_id = ${tenant.merchantId} AND mode = ${tenant.mode}::"Mode" AND created_at < ${period.to}
     GROUP BY currency, account
     ORDER BY currency, account`;
  const start = period.from.toISOString();
  const end = period.to.toISOString();
  let currency: string | null = null;
  let sums = { opening: 0n, debit: 0n, credit: 0n };
  const total = (c: string): Cell[] => {
    const closing = sums.opening + sums.debit - sums.credit;
    return ['total', c, null, Number(sums.opening), Number(sums.debit), Number(sums.credit), Number(closing), formatMoney(closing, c), start, end];
  };
  for (const r of rows) {
    if (currency !== null && r.currency !== currency) {
      yield total(currency);
      sums = { opening: 0n, debit: 0n, credit: 0n };
    }
    currency = r.currency;
    const [opening, debit, credit] = [BigInt(r.opening), BigInt(r.debit), BigInt(r.credit)];
    sums = { opening: sums.opening + opening, debit: sums.debit + debit, credit: sums.credit + credit };
    const closing = opening + debit - credit;
    yield ['account', r.currency, r.account, Number(opening), Number(debit), Number(credit), Number(closing), formatMoney(closing, r.currency), start, end];
  }
  if (currency !== null) yield total(currency);
}
