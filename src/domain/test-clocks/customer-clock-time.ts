// A test-clock customer's "now": its clock's frozen time (docs/test-clocks.md "Timestamps"), or
// null for a customer in wall time. A plain read: callers that must not race an advance lock
// the clock themselves (testClockOfCustomer).
import type { TenantDb } from '../../db/tenancy';

export async function customerClockTime(db: TenantDb, customerId: string | null): Promise<Date | null> {
  if (customerId === null) return null;
  const link = await db.testClockCustomer.findFirst({ where: { customerId }, select: { testClock: { select: { frozenTime: true } } } });
  return link?.testClock.frozenTime ?? null;
}
