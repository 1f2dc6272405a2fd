import Router from '@koa/router';
import { dispatchAfterCommit } from '../../../src/domain/dispatch-after-commit';
import type { AppDeps, AppState } from '../../context';
import { dbOf, tenantOf, scopeOf } from '../../context';
import type { Auth } from '../../middleware/auth';
import { transactional } from '../../middleware/transaction';
import { createCustomer } from '../../../src/domain/customers/create-customer';
import { updateCustomer } from '../../../src/domain/customers/update-customer';
import { findCustomer, listCustomers } from '../../../src/domain/customers/find-customers';
import { withTestClocks } from '../../../src/domain/customers/customer-test-clocks';
import { pageParams, parseBody, pathId } from '../../validate';
import { createCustomerSchema, updateCustomerSchema } from './schemas';
import { presentCustomer } from '../../../src/objects/customers';

export function customersRoutes(router: Router<AppState>, deps: AppDeps, auth: Auth): void {
  const tx = transactional(deps);

  router.post('/v1/customers', auth(), tx, async (ctx) => {
    const { test_clock: testClockId, ...input } = parseBody(createCustomerSchema, ctx.state.body);
    const created = await createCustomer(dbOf(ctx), tenantOf(ctx), { ...input, testClockId });
    dispatchAfterCommit(deps, scopeOf(ctx), created.events);
    ctx.status = 201;
    ctx.body = presentCustomer(created.customer, created.testClockId);
  });

  router.get('/v1/customers', auth(), async (ctx) => {
    const page = await listCustomers(dbOf(ctx), pageParams(ctx.query));
    ctx.body = { data: (await withTestClocks(dbOf(ctx), page.data)).map((c) => presentCustomer(c.customer, c.testClockId)), has_more: page.hasMore };
  });

  router.get('/v1/customers/:id', auth(), async (ctx) => {
    const customer = await findCustomer(dbOf(ctx), pathId(ctx.params.id));
    const [c] = await withTestClocks(dbOf(ctx), [customer]);
    ctx.body = presentCustomer(c!.customer, c!.testClockId);
  });

  router.patch('/v1/customers/:id', auth(), tx, async (ctx) => {
    const id = pathId(ctx.params.id);
    const input = parseBody(updateCustomerSchema, ctx.state.body);
    const updated = await updateCustomer(dbOf(ctx), tenantOf(ctx), id, input);
    dispatchAfterCommit(deps, scopeOf(ctx), updated.events);
    ctx.body = presentCustomer(updated.customer, updated.testClockId);
  });
}
