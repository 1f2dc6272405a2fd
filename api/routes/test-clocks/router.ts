// Test clocks, under the test-helper prefix (docs/test-clocks.md): test mode only, live keys get 403
// test_mode_only before anything else is looked at. docs/test-clocks.md.
import Router from '@koa/router';
import type { AppDeps, AppState } from '../../context';
import { dbOf, scopeOf, tenantOf } from '../../context';
import type { Auth } from '../../middleware/auth';
import { transactional } from '../../middleware/transaction';
import { testModeOnly } from '../test-helpers/router';
import { advanceTestClock, createTestClock, deleteTestClock, findTestClock, listTestClocks, parseFrozenTime } from '../../../src/domain/test-clocks/manage-test-clocks';
import { cancelSubscriptionsOfDeletedClock } from '../../../src/domain/subscriptions/cancel-clock-subscriptions';
import { pageParams, parseBody, pathId } from '../../validate';
import { advanceTestClockSchema, attachCustomerSchema, createTestClockSchema } from './schemas';
import { presentDeletedTestClock, presentTestClock } from '../../../src/objects/test-clocks';
import { attachCustomerToClock } from '../../../src/domain/test-clocks/attach-customer-to-test-clock';

const BASE = '/v1/test_helpers/test_clocks';

export function testClocksRoutes(router: Router<AppState>, deps: AppDeps, auth: Auth): void {
  const tx = transactional(deps);

  router.post(BASE, auth(), testModeOnly, tx, async (ctx) => {
    const input = parseBody(createTestClockSchema, ctx.state.body);
    const clock = await createTestClock(dbOf(ctx), tenantOf(ctx), { frozenTime: parseFrozenTime(input.frozen_time), name: input.name });
    ctx.status = 201;
    ctx.body = presentTestClock(clock);
  });

  router.get(BASE, auth(), testModeOnly, async (ctx) => {
    const page = await listTestClocks(dbOf(ctx), pageParams(ctx.query));
    ctx.body = { data: page.data.map(presentTestClock), has_more: page.hasMore };
  });

  router.get(`${BASE}/:id`, auth(), testModeOnly, async (ctx) => {
    ctx.body = presentTestClock(await findTestClock(dbOf(ctx), pathId(ctx.params.id)));
  });

  router.post(`${BASE}/:id/advance`, auth(), testModeOnly, tx, async (ctx) => {
    const id = pathId(ctx.params.id);
    const input = parseBody(advanceTestClockSchema, ctx.state.body);
    const tenant = tenantOf(ctx);
    const clock = await advanceTestClock(dbOf(ctx), tenant, id, parseFrozenTime(input.frozen_time));
    // If this signal is lost, the subscription reconciler wakes the clock within a minute.
    ctx.state.afterCommit.push(() => deps.workflows.testClock.signalAdvance({ testClockId: clock.id, merchantId: tenant.merchantId }));
    ctx.body = presentTestClock(clock);
  });

  router.post(`${BASE}/:id/customers`, auth(), testModeOnly, tx, async (ctx) => {
    const id = pathId(ctx.params.id);
    const input = parseBody(attachCustomerSchema, ctx.state.body);
    const clock = await attachCustomerToClock(deps, scopeOf(ctx), { testClockId: id, customerId: input.customer });
    ctx.body = presentTestClock(clock);
  });

  router.delete(`${BASE}/:id`, auth(), testModeOnly, tx, async (ctx) => {
    const tenant = tenantOf(ctx);
    const { clock, subscriptionIds } = await deleteTestClock(dbOf(ctx), tenant, pathId(ctx.params.id), new Date());
    ctx.state.afterCommit.push(async () => {
      await deps.workflows.testClock.signalDeleted(clock.id);
      await cancelSubscriptionsOfDeletedClock(deps.db, deps.workflows, tenant, subscriptionIds, clock.frozenTime);
    });
    ctx.body = presentDeletedTestClock(clock);
  });
}
