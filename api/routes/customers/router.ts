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

export function customersRoutes(router: Router<AppState>, deps: AppDeps, auth: Auth): void {
  const tx = transactional(deps);

  router.post('/v1/customers', auth(), tx, async (ctx) => {
    const { test_clock: testClockId, ...input } = parseBody(createCustomerSchema, ctx.state.body);
    const created = await createCustomer(dbOf(ctx), tenantOf(ctx), input);
    if (testClockId) {
      // Same transaction: a refused clock (unknown, live mode) leaves no customer behind.
      await attachCustomerToTestClock(dbOf(ctx), tenantOf(ctx), { testClockId, customerId: created.id, clockParam: 'test_clock' });
    }
    ctx.status = 201;
    ctx.body = { ...presentCustomer(created), test_clock: testClockId ?? null };
  });

  router.get('/v1/customers', auth(), async (ctx) => {
    const page = await listCustomers(dbOf(ctx), pageParams(ctx.query));
    ctx.body = { data: page.data.map(presentCustomer), has_more: page.hasMore };
  });

  router.get('/v1/customers/:id', auth(), async (ctx) => {
    const customer = await findCustomer(dbOf(ctx), pathId(ctx.params.id));
    const clock = await dbOf(ctx).testClockCustomer.findFirst({ where: { customerId: customer.id }, select: { testClockId: true } });
    ctx.body = { ...presentCustomer(customer), test_clock: clock?.testClockId ?? null };
  });

  router.patch('/v1/customers/:id', auth(), tx, async (ctx) => {
    const id = pathId(ctx.params.id);
    const input = parseBody(updateCustomerSchema, ctx.state.body);
    ctx.body = presentCustomer(await updateCustomer(dbOf(ctx), tenantOf(ctx), id, input));
  });
}
