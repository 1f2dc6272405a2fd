import type { TenantDb } from '../../db/tenancy';

/** The subscription's time: its test clock's frozen time, or now. */
export async function subscriptionNow(db: TenantDb, subscriptionId: string): Promise<Date> {
  const sub = await db.subscription.findFirst({ where: { id: subscriptionId }, include: { testClock: true } });
  return sub?.testClock?.frozenTime ?? new Date();
}
