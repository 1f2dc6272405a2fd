import Router from '@koa/router';
import type { AppDeps, AppState } from '../../context';
import { dbOf, tenantOf } from '../../context';
import type { Auth } from '../../app';
import { transactional } from '../../middleware/transaction';
import { createCustomer } from '../../../src/domain/customers/create-customer';
import { attachCustomerToTestClock } from '../../../src/domain/test-clocks/manage-test-clocks';
import { updateCustomer } from '../../../src/domain/customers/update-customer';
import { findCustomer, listCustomers } from '../../../src/domain/customers/find-customers';
import { pageParams, parseBody, pathId } from '../../validate';
import { createCustomerSchema, updateCustomerSchema } from './schemas';
import { presentCustomer } from './presenter';
import { dispatchEvents, recordEvent } from '../../../src/events';
import type { TenantDb } from '../../../src/db/tenancy';
import type { Customer } from '../../../src/generated/prisma/client';

/** The customer as every route (and its events) present it: with `test_clock` (null outside test clocks). */
async function presentWithClocks(db: TenantDb, customers: Customer[]) {
  const links = customers.length
    ? await db.testClockCustomer.findMany({ where: { customerId: { in: customers.map((c) => c.id) } }, select: { customerId: true, testClockId: true } })
    : [];
  const clockOf = new Map(links.map((l) => [l.customerId, l.testClockId]));
  return customers.map((c) => ({ ...presentCustomer(c), test_clock: clockOf.get(c.id) ?? null }));
}

export function customersRoutes(router: Router<AppState>, deps: AppDeps, auth: Auth): void {
  const tx = transactional(deps);

  router.post('/v1/customers', auth(), tx, async (ctx) => {
    const { test_clock: testClockId, ...input } = parseBody(createCustomerSchema, ctx.state.body);
    const created = await createCustomer(dbOf(ctx), tenantOf(ctx), input);
    if (testClockId) {
      // Same transaction: a refused clock (unknown, live mode) leaves no customer behind.
      await attachCustomerToTestClock(dbOf(ctx), tenantOf(ctx), { testClockId, customerId: created.id, clockParam: 'test_clock' });
    }
    const [body] = await presentWithClocks(dbOf(ctx), [created]);
    // Outbox: the event commits with the customer (docs/events.md), dispatched after commit.
    const event = await recordEvent(dbOf(ctx), tenantOf(ctx), { type: 'customer.created', data: body });
    ctx.state.afterCommit.push(async () => void (await dispatchEvents(deps, [event])));
    ctx.status = 201;
    ctx.body = body;
  });

  router.get('/v1/customers', auth(), async (ctx) => {
    const page = await listCustomers(dbOf(ctx), pageParams(ctx.query));
    ctx.body = { data: await presentWithClocks(dbOf(ctx), page.data), has_more: page.hasMore };
  });

  router.get('/v1/customers/:id', auth(), async (ctx) => {
    const customer = await findCustomer(dbOf(ctx), pathId(ctx.params.id));
    ctx.body = (await presentWithClocks(dbOf(ctx), [customer]))[0];
  });

  router.patch('/v1/customers/:id', auth(), tx, async (ctx) => {
    const id = pathId(ctx.params.id);
    const input = parseBody(updateCustomerSchema, ctx.state.body);
    const { customer, previous } = await updateCustomer(dbOf(ctx), tenantOf(ctx), id, input);
    const [body] = await presentWithClocks(dbOf(ctx), [customer]);
    // Only a real change is an event: a PATCH that sets what is already there records none
    // (PATCH cannot change the test clock, so the presented fields without it decide).
    if (JSON.stringify(presentCustomer(previous)) !== JSON.stringify(presentCustomer(customer))) {
      const event = await recordEvent(dbOf(ctx), tenantOf(ctx), { type: 'customer.updated', data: body });
      ctx.state.afterCommit.push(async () => void (await dispatchEvents(deps, [event])));
    }
    ctx.body = body;
  });
}
