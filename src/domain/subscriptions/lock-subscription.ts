// The row lock every subscription step and command takes first, and their transaction options.
import type { Tenant, TenantDb } from '../../db/tenancy';
import type { Subscription } from '../../generated/prisma/client';
import { camelRow } from '../../db/raw-rows';

/** Transaction options of every subscription billing step (they lock the row, then do a period's work). */
export const STEP_TX = { timeout: 60_000, maxWait: 10_000 } as const;

export async function lockSubscription(db: TenantDb, tenant: Tenant, id: string): Promise<void> {
  await db.$executeRaw`SELECT 1 FROM subscriptions WHERE id = ${id} AND merchant_id = ${tenant.merchantId} AND mode = ${tenant.mode}::"Mode" FOR UPDATE`;
}

/** Locks the row and reads it, in one statement (null when it is not there). */
export async function lockedSubscription(db: TenantDb, tenant: Tenant, id: string): Promise<Subscription | null> {
  const rows = await db.$queryRaw<Array<Record<string, unknown>>>`SELECT * FROM subscriptions
    WHERE id = ${id} AND merchant_id = ${tenant.merchantId} AND mode = ${tenant.mode}::"Mode" FOR UPDATE`;
  return rows[0] ? camelRow<Subscription>(rows[0]) : null;
}
