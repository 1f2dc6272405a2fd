// The row lock every subscription step and command takes first, and their transaction options.
import type { Tenant, TenantDb } from '../../db/tenancy';

/** Transaction options of every subscription billing step (they lock the row, then do a period's work). */
export const STEP_TX = { timeout: 60_000, maxWait: 10_000 } as const;

export async function lockSubscription(db: TenantDb, tenant: Tenant, id: string): Promise<void> {
  await db.$executeRaw`SELECT 1 FROM subscriptions WHERE id = ${id} AND merchant_id = ${tenant.merchantId} AND mode = ${tenant.mode}::"Mode" FOR UPDATE`;
}
