// Row lock on a payment (SELECT … FOR UPDATE) for the rest of the caller's transaction: confirm,
// cancel and refund serialize on it, so two of them never both see the old state. Must run
// inside a transaction; raw SQL, so the tenant filter is explicit.
import type { Tenant, TenantDb } from '../../db/tenancy';
import type { Payment } from '../../generated/prisma/client';

export async function lockPayment(db: TenantDb, tenant: Tenant, id: string): Promise<Payment | null> {
  const rows = await db.$queryRaw<Array<{ id: string }>>`
    SELECT id FROM payments
    WHERE id = ${id} AND merchant_id = ${tenant.merchantId} AND mode = ${tenant.mode}::"Mode"
    FOR UPDATE`;
  if (rows.length === 0) return null;
  return db.payment.findFirst({ where: { id } });
}
