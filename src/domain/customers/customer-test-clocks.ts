import type { TenantDb } from '../../db/tenancy';
import type { Customer } from '../../generated/prisma/client';

/** Each customer with the id of the test clock it follows (null: wall time), in one query. */
export async function withTestClocks(db: TenantDb, customers: Customer[]): Promise<Array<{ customer: Customer; testClockId: string | null }>> {
  const links = customers.length
    ? await db.testClockCustomer.findMany({ where: { customerId: { in: customers.map((c) => c.id) } }, select: { customerId: true, testClockId: true } })
    : [];
  const clockOf = new Map(links.map((l) => [l.customerId, l.testClockId]));
  return customers.map((customer) => ({ customer, testClockId: clockOf.get(customer.id) ?? null }));
}
