// Test clocks, under the test-helper prefix (docs/test-clocks.md): test mode only, live keys get 403
// test_mode_only before anything else is looked at. docs/test-clocks.md.
import { answerPage, areaOf, retrieveById, secretKey } from '../../route';
import { TEST_MODE_ONLY } from '../../openapi/describe';
import { dbOf, scopeOf, tenantOf } from '../../context';
import { withTransaction } from '../../middleware/transaction';
import { testModeOnly } from '../test-helpers/router';
import { advanceTestClock, createTestClock, deleteTestClock, findTestClock, listTestClocks, parseFrozenTime } from '../../../src/domain/test-clocks/manage-test-clocks';
import { cancelSubscriptionsOfDeletedClock } from '../../../src/domain/subscriptions/cancel-clock-subscriptions';
import { pageParams, parseBody, pathId } from '../../validate';
import { advanceTestClockSchema, attachCustomerSchema, createTestClockSchema } from './schemas';
import { presentDeletedTestClock, presentTestClock } from '../../../src/objects/test-clocks';
import { attachCustomerToClock } from '../../../src/domain/test-clocks/attach-customer-to-test-clock';

const BASE = '/v1/test_helpers/test_clocks';

const { route, area } = areaOf(withTransaction);

export const testClocksRoutes = area('test-clocks', [
  route({
    method: 'post',
    path: BASE,
    operationId: 'createTestClock',
    tag: 'Test helpers',
    summary: 'Create a test clock',
    description: `${TEST_MODE_ONLY} Creates a test clock frozen at \`frozen_time\` (ISO 8601 with a zone, 2000–2099). Customers attached to it, and their subscriptions, invoices, payments and events, live in the clock's time instead of wall time, so months of billing run in seconds. Records no event.`,
    body: createTestClockSchema,
    status: 201,
    response: 'TestClock',
    errors: ['test_mode_only'],
    ...secretKey(testModeOnly, 'tx'),
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
    description: `${TEST_MODE_ONLY} Lists the test mode's test clocks, newest first, one page at a time. Reads only: records no event.`,
    list: 'TestClock',
    errors: ['test_mode_only'],
    ...secretKey(testModeOnly),
    handler: answerPage((ctx) => listTestClocks(dbOf(ctx), pageParams(ctx.query)), presentTestClock),
  }),
  route({
    method: 'get',
    path: `${BASE}/:id`,
    operationId: 'retrieveTestClock',
    tag: 'Test helpers',
    summary: 'Retrieve a test clock',
    description: `${TEST_MODE_ONLY} Retrieves one test clock: its \`frozen_time\` and its \`status\` (\`ready\`, or \`advancing\` while its subscriptions catch up). Poll it after an advance until the status is \`ready\` again. Reads only: records no event.`,
    response: 'TestClock',
    errors: ['test_mode_only'],
    ...secretKey(testModeOnly),
    handler: retrieveById(findTestClock, presentTestClock),
  }),
  route({
    method: 'post',
    path: `${BASE}/:id/advance`,
    operationId: 'advanceTestClock',
    tag: 'Test helpers',
    summary: 'Advance a test clock',
    description: `${TEST_MODE_ONLY} Moves the clock forward to \`frozen_time\` (strictly later than its current time, else validation_failed) and sets it \`advancing\`; a clock that is already advancing answers 409 invalid_state. After commit every subscription of the clock's customers runs everything due up to the new time, each step at its own instant (renewals, trial ends, retries, cancellations), recording the invoices, payments and events those steps record; the clock returns to \`ready\` when all have caught up. Subscription commands for those customers answer 409 invalid_state meanwhile.`,
    body: advanceTestClockSchema,
    response: 'TestClock',
    errors: ['test_mode_only', 'invalid_state'],
    ...secretKey(testModeOnly, 'tx'),
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
    description: `${TEST_MODE_ONLY} Attaches an existing customer to the clock, so its subscriptions follow the clock's time. A customer is attached once and only before it has any subscription: one with subscriptions, or already on another clock, answers 409 invalid_state. Records \`customer.updated\`, dated at the clock's time.`,
    body: attachCustomerSchema,
    response: 'TestClock',
    errors: ['test_mode_only', 'invalid_state'],
    ...secretKey(testModeOnly, 'tx'),
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
    description: `${TEST_MODE_ONLY} Deletes a test clock: it disappears from the API and every subscription of its customers that is not canceled yet is canceled immediately, at the clock's time (recording \`subscription.canceled\`). The customers stay attached to the deleted clock and new subscriptions for them are refused. Answers \`{ id, object, deleted: true }\`.`,
    response: 'DeletedTestClock',
    errors: ['test_mode_only'],
    ...secretKey(testModeOnly, 'tx'),
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
