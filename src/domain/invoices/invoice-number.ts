// Invoice numbers: gap-free and increasing per merchant and mode. The counter row is
// upsert-incremented in the transaction that finalizes the invoice, so a rolled-back
// finalization rolls its number back too (no gaps) and concurrent finalizations of one
// merchant queue on the counter row (no duplicates; UNIQUE(merchant_id, mode, number) backs it).
import { Prisma } from '../../generated/prisma/client';
import type { Tenant, TenantDb } from '../../db/tenancy';

export const INVOICE_NUMBER_PREFIX = 'INV-';

export function formatInvoiceNumber(n: number): string {
  return `${INVOICE_NUMBER_PREFIX}${String(n).padStart(6, '0')}`;
}

/** formatInvoiceNumber in SQL, for a statement that takes the number and writes it at once (n: an integer expression). */
export function invoiceNumberSql(n: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`(${INVOICE_NUMBER_PREFIX}::text || CASE WHEN (${n}) < 1000000 THEN lpad((${n})::text, 6, '0') ELSE (${n})::text END)`;
}

/** Takes the next number. Call it inside the finalizing transaction only. */
export async function takeInvoiceNumber(db: TenantDb, tenant: Tenant): Promise<string> {
  const rows = await db.$queryRaw<Array<{ n: number }>>`
    INSERT INTO invoice_number_sequences (merchant_id, mode, next)
    VALUES (${tenant.merchantId}, ${tenant.mode}::"Mode", 2)
    ON CONFLICT (merchant_id, mode) DO UPDATE SET next = invoice_number_sequences.next + 1
    RETURNING next - 1 AS n`;
  return formatInvoiceNumber(Number(rows[0]!.n));
}
