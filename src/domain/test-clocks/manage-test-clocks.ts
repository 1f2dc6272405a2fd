// Test clocks (test mode only, docs/test-clocks.md): create at a frozen time, retrieve, list,
// advance, delete, and attach customers. The API answers from these rows; the clock's workflow
// (workflows/test-clock.ts) moves an advancing clock back to `ready` once every subscription
// of its customers has caught up.
import type { Tenant, TenantDb } from '../../db/tenancy';
import type { TestClock } from '../../generated/prisma/client';
import { errors } from '../../errors';
import { newId } from '../../ids';
import { listPage, newestFirst, type Page, type PageParams } from '../../db/paging';
import { parseEventTimestamp } from '../usage-events/event-input';

/** Frozen times are kept within these bounds (a sane calendar for billing tests). */
export const CLOCK_MIN = new Date('2000-01-01T00:00:00.000Z');
export const CLOCK_MAX = new Date('2100-01-01T00:00:00.000Z');

export function assertTestMode(tenant: Tenant): void {
  if (tenant.mode !== 'test') throw errors.testModeOnly('Test clocks are available only with test keys (sk_test_…)');
}

/** An ISO 8601 timestamp with zone within the clock bounds; else validation_failed on `param`. */
export function parseFrozenTime(raw: string, param = 'frozen_time'): Date {
  const d = parseEventTimestamp(raw);
  if (!d) throw errors.validationFailed(`${param} must be an ISO 8601 timestamp with a zone, e.g. 2025-01-31T00:00:00.000Z`, param);
  if (d < CLOCK_MIN || d >= CLOCK_MAX) throw errors.validationFailed(`${param} must be from ${CLOCK_MIN.toISOString()} to before ${CLOCK_MAX.toISOString()}`, param);
  return d;
}

export async function createTestClock(db: TenantDb, tenant: Tenant, input: { frozenTime: Date; name?: string | null }): Promise<TestClock> {
  assertTestMode(tenant);
  return db.testClock.create({
    data: { id: newId('testClock'), merchantId: tenant.merchantId, mode: tenant.mode, frozenTime: input.frozenTime, name: input.name ?? null, status: 'ready' },
  });
}

export async function findTestClock(db: TenantDb, id: string, param = 'id'): Promise<TestClock> {
  const row = await db.testClock.findFirst({ where: { id, deletedAt: null } });
  if (!row) throw errors.resourceMissing(`No such test clock: '${id}'`, param);
  return row;
}

export async function listTestClocks(db: TenantDb, params: PageParams): Promise<Page<TestClock>> {
  return listPage({
    params,
    findCursor: async (id) => {
      const c = await db.testClock.findFirst({ where: { id, deletedAt: null }, select: { id: true, createdAt: true } });
      return c && { id: c.id, sortKey: c.createdAt };
    },
    fetch: (after, take) => db.testClock.findMany({ where: { deletedAt: null, ...(after ?? {}) }, orderBy: newestFirst(), take }),
  });
}

/**
 * Locks the clock row for the rest of the transaction (advance, delete, attach and subscription
 * creation serialise on it), then reads it. Unknown or deleted → resource_missing.
 */
export async function lockTestClock(db: TenantDb, tenant: Tenant, id: string, param = 'id'): Promise<TestClock> {
  await db.$executeRaw`SELECT 1 FROM test_clocks WHERE id = ${id} AND merchant_id = ${tenant.merchantId} AND mode = ${tenant.mode}::"Mode" FOR UPDATE`;
  return findTestClock(db, id, param);
}

/**
 * Moves the clock to `frozenTime` (strictly later) and marks it `advancing`. Refused while an
 * earlier advance is still being processed (409 invalid_state). The caller signals the clock's
 * workflow after commit.
 */
export async function advanceTestClock(db: TenantDb, tenant: Tenant, id: string, frozenTime: Date): Promise<TestClock> {
  assertTestMode(tenant);
  const clock = await lockTestClock(db, tenant, id);
  if (clock.status === 'advancing') {
    throw errors.invalidState('The test clock is still advancing; wait until its status is ready before advancing it again', 'frozen_time');
  }
  if (frozenTime.getTime() <= clock.frozenTime.getTime()) {
    throw errors.validationFailed(`frozen_time must be later than the clock's current frozen_time ${clock.frozenTime.toISOString()}`, 'frozen_time');
  }
  return db.testClock.update({ where: { id: clock.id }, data: { frozenTime, status: 'advancing' } });
}

/**
 * Deletes the clock for the API (retrieve and list no longer show it). The subscriptions of its
 * customers are canceled by the caller (returned here); the customers stay attached to the
 * deleted clock so they never silently switch to wall time.
 */
export async function deleteTestClock(db: TenantDb, tenant: Tenant, id: string, now: Date): Promise<{ clock: TestClock; subscriptionIds: string[] }> {
  assertTestMode(tenant);
  const clock = await lockTestClock(db, tenant, id);
  const updated = await db.testClock.update({ where: { id: clock.id }, data: { deletedAt: now } });
  const subs = await db.subscription.findMany({ where: { testClockId: clock.id, status: { not: 'canceled' } }, select: { id: true } });
  return { clock: updated, subscriptionIds: subs.map((s) => s.id) };
}

/**
 * Attaches a customer to a clock. A customer can be attached once, and only before it has any
 * subscription (its billing history would otherwise mix wall time and clock time).
 * This is what `test_clock` on customer creation does (docs/test-clocks.md).
 */
export async function attachCustomerToTestClock(
  db: TenantDb,
  tenant: Tenant,
  input: { testClockId: string; customerId: string; clockParam?: string; customerParam?: string },
): Promise<TestClock> {
  assertTestMode(tenant);
  const clock = await lockTestClock(db, tenant, input.testClockId, input.clockParam ?? 'id');
  const customerParam = input.customerParam ?? 'customer';
  const customer = await db.customer.findFirst({ where: { id: input.customerId }, select: { id: true } });
  if (!customer) throw errors.resourceNotFound(`No such customer: '${input.customerId}'`, customerParam);
  const attached = await db.testClockCustomer.findFirst({ where: { customerId: customer.id } });
  if (attached) {
    if (attached.testClockId === clock.id) return clock;
    throw errors.invalidState(`Customer '${customer.id}' is already attached to another test clock`, customerParam);
  }
  const subs = await db.subscription.count({ where: { customerId: customer.id } });
  if (subs > 0) throw errors.invalidState(`Customer '${customer.id}' already has subscriptions; attach a customer to a test clock before subscribing it`, customerParam);
  await db.testClockCustomer.create({ data: { merchantId: tenant.merchantId, mode: tenant.mode, customerId: customer.id, testClockId: clock.id } });
  return clock;
}

/** The clock a customer follows, or null (wall time). The row is locked when found (see lockTestClock). */
export async function testClockOfCustomer(db: TenantDb, tenant: Tenant, customerId: string): Promise<TestClock | null> {
  const link = await db.testClockCustomer.findFirst({ where: { customerId } });
  if (!link) return null;
  await db.$executeRaw`SELECT 1 FROM test_clocks WHERE id = ${link.testClockId} AND merchant_id = ${tenant.merchantId} AND mode = ${tenant.mode}::"Mode" FOR UPDATE`;
  return db.testClock.findFirst({ where: { id: link.testClockId } });
}

/** Customers attached to a clock (for the API's clock object). */
export async function countClockCustomers(db: TenantDb, testClockId: string): Promise<number> {
  return db.testClockCustomer.count({ where: { testClockId } });
}
