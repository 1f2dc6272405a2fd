// Test clocks, under the test-helper prefix (docs/test-clocks.md): test mode only, live keys get 403
// test_mode_only before anything else is looked at. docs/test-clocks.md.
import { areaOf } from '../../route';
import { TEST_MODE_ONLY } from '../../openapi/describe';
import { dbOf, scopeOf, tenantOf } from '../../context';
import { transactional } from '../../middleware/transaction';
import { testModeOnly } from '../test-helpers/router';
import { advanceTestClock, createTestClock, deleteTestClock, findTestClock, listTestClocks, parseFrozenTime } from '../../../src/domain/test-clocks/manage-test-clocks';
import { cancelSubscriptionsOfDeletedClock } from '../../../src/domain/subscriptions/cancel-clock-subscriptions';
import { pageParams, parseBody, pathId } from '../../validate';
import { advanceTestClockSchema, attachCustomerSchema, createTestClockSchema } from './schemas';
import { presentDeletedTestClock, presentTestClock } from '../../../src/objects/test-clocks';
import { attachCustomerToClock } from '../../../src/domain/test-clocks/attach-customer-to-test-clock';

const BASE = '/v1/test_helpers/test_clocks';

const { route, area } = areaOf((deps) => {
  const tx = transactional(deps);
  return { tx };
});

export const testClocksRoutes = area('test-clocks', [
  route({
    method: 'post',
    path: BASE,
    operationId: 'createTestClock',
    tag: 'Test helpers',
    summary: 'Create a test clock',
    description: TEST_MODE_ONLY,
    auth: 'secret',
    body: createTestClockSchema,
    status: 201,
    response: 'TestClock',
    errors: ['test_mode_only'],
    use: ({ auth, tx }) => [auth(), testModeOnly, tx],
    handler: () => async (ctx) => {
      const input = parseBody(createTestClockSchema, ctx.state.body);
      const clock = await createTestClock(dbOf(ctx), tenantOf(ctx), { frozenTime: parseFrozenTime(input.frozen_time), name: input.name });
      ctx.status = 201;
      ctx.body = presentTestClock(clock);
    },
  }),
  route({
    method: 'get',
    path: BASE,
    operationId: 'listTestClocks',
    tag: 'Test helpers',
    summary: 'List test clocks',
    description: TEST_MODE_ONLY,
    auth: 'secret',
    list: 'TestClock',
    errors: ['test_mode_only'],
    use: ({ auth }) => [auth(), testModeOnly],
    handler: () => async (ctx) => {
      const page = await listTestClocks(dbOf(ctx), pageParams(ctx.query));
      ctx.body = { data: page.data.map(presentTestClock), has_more: page.hasMore };
    },
  }),
  route({
    method: 'get',
    path: `${BASE}/:id`,
    operationId: 'retrieveTestClock',
    tag: 'Test helpers',
    summary: 'Retrieve a test clock',
    description: TEST_MODE_ONLY,
    auth: 'secret',
    response: 'TestClock',
    errors: ['test_mode_only'],
    use: ({ auth }) => [auth(), testModeOnly],
    handler: () => async (ctx) => {
      ctx.body = presentTestClock(await findTestClock(dbOf(ctx), pathId(ctx.params.id)));
    },
  }),
  route({
    method: 'post',
    path: `${BASE}/:id/advance`,
    operationId: 'advanceTestClock',
    tag: 'Test helpers',
    summary: 'Advance a test clock',
    description: TEST_MODE_ONLY,
    auth: 'secret',
    body: advanceTestClockSchema,
    response: 'TestClock',
    errors: ['test_mode_only', 'invalid_state'],
    use: ({ auth, tx }) => [auth(), testModeOnly, tx],
    handler:
      ({ deps }) =>
      async (ctx) => {
        const id = pathId(ctx.params.id);
        const input = parseBody(advanceTestClockSchema, ctx.state.body);
        const tenant = tenantOf(ctx);
        const clock = await advanceTestClock(dbOf(ctx), tenant, id, parseFrozenTime(input.frozen_time));
        // If this signal is lost, the subscription reconciler wakes the clock within a minute.
        ctx.state.afterCommit.push(() => deps.workflows.testClock.signalAdvance({ testClockId: clock.id, merchantId: tenant.merchantId }));
        ctx.body = presentTestClock(clock);
      },
  }),
  route({
    method: 'post',
    path: `${BASE}/:id/customers`,
    operationId: 'attachTestClockCustomer',
    tag: 'Test helpers',
    summary: 'Attach a customer to a test clock',
    description: TEST_MODE_ONLY,
    auth: 'secret',
    body: attachCustomerSchema,
    response: 'TestClock',
    errors: ['test_mode_only', 'invalid_state'],
    use: ({ auth, tx }) => [auth(), testModeOnly, tx],
    handler:
      ({ deps }) =>
      async (ctx) => {
        const id = pathId(ctx.params.id);
        const input = parseBody(attachCustomerSchema, ctx.state.body);
        const clock = await attachCustomerToClock(deps, scopeOf(ctx), { testClockId: id, customerId: input.customer });
        ctx.body = presentTestClock(clock);
      },
  }),
  route({
    method: 'delete',
    path: `${BASE}/:id`,
    operationId: 'deleteTestClock',
    tag: 'Test helpers',
    summary: 'Delete a test clock',
    description: TEST_MODE_ONLY,
    auth: 'secret',
    response: 'DeletedTestClock',
    errors: ['test_mode_only', 'invalid_state'],
    use: ({ auth, tx }) => [auth(), testModeOnly, tx],
    handler:
      ({ deps }) =>
      async (ctx) => {
        const tenant = tenantOf(ctx);
        const { clock, subscriptionIds } = await deleteTestClock(dbOf(ctx), tenant, pathId(ctx.params.id), new Date());
        ctx.state.afterCommit.push(async () => {
          await deps.workflows.testClock.signalDeleted(clock.id);
          await cancelSubscriptionsOfDeletedClock(deps.db, deps.workflows, tenant, subscriptionIds, clock.frozenTime);
        });
        ctx.body = presentDeletedTestClock(clock);
      },
  }),
]);
