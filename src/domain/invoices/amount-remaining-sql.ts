// `amountRemaining` (src/billing/invoice-amounts.ts) as a SQL expression over the `invoices`
// table, for aggregate queries (dashboard figures, the ledger's invariant): the same rule, with
// the collectible statuses taken from the one list.
import { Prisma } from '../../generated/prisma/client';
import { COLLECTIBLE_INVOICE_STATUSES } from '../../billing/invoice-amounts';

/** `amount_remaining` of the row; `alias` qualifies the columns (e.g. `i`) when the query joins. */
export function amountRemainingSql(alias?: string): Prisma.Sql {
  const col = (name: string) => Prisma.raw(alias ? `${alias}.${name}` : name);
  const statuses = Prisma.join(COLLECTIBLE_INVOICE_STATUSES.map((s) => Prisma.sql`${s}::"InvoiceStatus"`));
  return Prisma.sql`(CASE WHEN ${col('status')} IN (${statuses}) THEN GREATEST(${col('amount_due')} - ${col('amount_paid')}, 0) ELSE 0 END)`;
}
