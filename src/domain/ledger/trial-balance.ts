// The trial balance: per currency and account, the sums of debits and credits of every entry
// recorded up to `asOf` (optionally of one customer). Total debits always equal total credits
// (every posting balances), which the response shows.
import type { Tenant, TenantDb } from '../../db/tenancy';
import { Prisma } from '../../generated/prisma/client';
import { requireCustomer } from '../customers/find-customers';
import type { TrialBalance, TrialBalanceAccount } from '../../objects/ledger';

export type { TrialBalance };

export async function trialBalance(db: TenantDb, tenant: Tenant, input: { asOf: Date; customerId?: string }): Promise<TrialBalance> {
  if (input.customerId !== undefined) await requireCustomer(db, input.customerId);
  const customer = input.customerId !== undefined ? Prisma.sql`AND customer_id = ${input.customerId}` : Prisma.empty;
  const rows = await db.$queryRaw<Array<{ currency: string; account: string; debit: bigint; credit: bigint }>>`
    SELECT currency, account, SUM(debit)::bigint AS debit, SUM(credit)::bigint AS credit
      FROM ledger_entries
     WHERE merchant_id = ${tenant.merchantId} AND mode = ${tenant.mode}::"Mode" AND created_at <= ${input.asOf} ${customer}
     GROUP BY currency, account
     ORDER BY currency, account`;
  const byCurrency = new Map<string, TrialBalanceAccount[]>();
  for (const r of rows) {
    const list = byCurrency.get(r.currency) ?? [];
    list.push({ account: r.account, debit: BigInt(r.debit), credit: BigInt(r.credit) });
    byCurrency.set(r.currency, list);
  }
  return {
    asOf: input.asOf,
    customerId: input.customerId ?? null,
    currencies: [...byCurrency.entries()].map(([currency, accounts]) => ({
      currency,
      accounts,
      totalDebit: accounts.reduce((s, a) => s + a.debit, 0n),
      totalCredit: accounts.reduce((s, a) => s + a.credit, 0n),
    })),
  };
}
