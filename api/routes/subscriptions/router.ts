// Subscriptions (docs/subscriptions.md). Reads come from the database; every change after
// creation is a command through runSubscriptionCommand (src/domain/subscriptions/), and the
// answer is the subscription as the database has it once the workflow applied the change.
import { areaOf } from '../../route';
import { dispatchAfterCommit } from '../../../src/domain/dispatch-after-commit';
import type { AppContext, AppDeps } from '../../context';
import { dbOf, scopeOf, tenantOf } from '../../context';
import { stepwise, transactional } from '../../middleware/transaction';
import { createSubscription } from '../../../src/domain/subscriptions/create-subscription';
import { findSubscriptionWithItems, listSubscriptions } from '../../../src/domain/subscriptions/find-subscriptions';
import { runSubscriptionCommand, type SubscriptionChangeCommand } from '../../../src/domain/subscriptions/run-subscription-command';
import { pageParams, parseBody, parseQuery, pathId } from '../../validate';
import { cancelSubscriptionSchema, createSubscriptionSchema, listSubscriptionsQuery, updateSubscriptionSchema } from './schemas';
import { presentSubscription } from '../../../src/objects/subscriptions';

async function commandAndPresent(ctx: AppContext, deps: AppDeps, id: string, command: SubscriptionChangeCommand): Promise<void> {
  await runSubscriptionCommand(deps, scopeOf(ctx), id, command);
  const { subscription, items } = await findSubscriptionWithItems(dbOf(ctx), id);
  ctx.body = presentSubscription(subscription, items);
}

const { route, area } = areaOf((deps) => {
  const tx = transactional(deps);
  // Commands wait on the subscription's workflow (whose activity needs a connection of the worker's
  // pool): no request transaction is held across that wait (docs/idempotency.md "Step-wise requests").
  const steps = stepwise(deps);
  return { tx, steps };
});

export const subscriptionsRoutes = area('subscriptions', [
  route({
    method: 'post',
    path: '/v1/subscriptions',
    operationId: 'createSubscription',
    tag: 'Subscriptions',
    summary: 'Create a subscription',
    auth: 'secret',
    body: createSubscriptionSchema,
    status: 201,
    response: 'Subscription',
    errors: ['invalid_subscription', 'card_declined', 'invalid_state'],
    use: ({ auth, tx }) => [auth(), tx],
    handler:
      ({ deps }) =>
      async (ctx) => {
        const input = parseBody(createSubscriptionSchema, ctx.state.body);
        const tenant = tenantOf(ctx);
        const created = await createSubscription(dbOf(ctx), tenant, input, new Date());
        const s = created.subscription;
        // If this start is lost, the reconciler starts the workflow within a minute.
        ctx.state.afterCommit.push(async () => {
          await deps.workflows.subscription.start({
            subscriptionId: s.id,
            merchantId: tenant.merchantId,
            mode: tenant.mode,
            customerId: s.customerId,
            status: s.status,
            clockTime: created.clockTime?.toISOString() ?? null,
          });
        });
        dispatchAfterCommit(deps, scopeOf(ctx), created.events);
        ctx.status = 201;
        ctx.body = presentSubscription(s, created.items);
      },
  }),
  route({
    method: 'get',
    path: '/v1/subscriptions',
    operationId: 'listSubscriptions',
    tag: 'Subscriptions',
    summary: 'List subscriptions',
    auth: 'secret',
    query: listSubscriptionsQuery,
    list: 'Subscription',
    use: ({ auth }) => [auth()],
    handler: () => async (ctx) => {
      const q = parseQuery(listSubscriptionsQuery, ctx.query);
      const page = await listSubscriptions(dbOf(ctx), { customerId: q.customer, status: q.status }, pageParams(ctx.query));
      ctx.body = { data: page.data.map((s) => presentSubscription(s.subscription, s.items)), has_more: page.hasMore };
    },
  }),
  route({
    method: 'get',
    path: '/v1/subscriptions/:id',
    operationId: 'retrieveSubscription',
    tag: 'Subscriptions',
    summary: 'Retrieve a subscription',
    auth: 'secret',
    response: 'Subscription',
    use: ({ auth }) => [auth()],
    handler: () => async (ctx) => {
      const { subscription, items } = await findSubscriptionWithItems(dbOf(ctx), pathId(ctx.params.id));
      ctx.body = presentSubscription(subscription, items);
    },
  }),
  route({
    method: 'post',
    path: '/v1/subscriptions/:id',
    operationId: 'updateSubscription',
    tag: 'Subscriptions',
    summary: 'Update a subscription',
    auth: 'secret',
    body: updateSubscriptionSchema,
    response: 'Subscription',
    errors: ['invalid_subscription', 'invalid_state'],
    use: ({ auth, steps }) => [auth(), steps],
    handler:
      ({ deps }) =>
      async (ctx) => {
        const id = pathId(ctx.params.id);
        const input = parseBody(updateSubscriptionSchema, ctx.state.body);
        const changes = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
        await commandAndPresent(ctx, deps, id, { kind: 'update', changes });
      },
  }),
  route({
    method: 'post',
    path: '/v1/subscriptions/:id/cancel',
    operationId: 'cancelSubscription',
    tag: 'Subscriptions',
    summary: 'Cancel a subscription (now or at period end)',
    auth: 'secret',
    body: cancelSubscriptionSchema,
    response: 'Subscription',
    errors: ['invalid_state'],
    use: ({ auth, steps }) => [auth(), steps],
    handler:
      ({ deps }) =>
      async (ctx) => {
        const id = pathId(ctx.params.id);
        const input = parseBody(cancelSubscriptionSchema, ctx.state.body);
        await commandAndPresent(ctx, deps, id, { kind: 'cancel', atPeriodEnd: input.at_period_end ?? false });
      },
  }),
  // Commands without a body: one route each.
  ...(
    [
      { kind: 'uncancel', summary: 'Undo a cancellation at period end', errors: ['cannot_uncancel'] },
      { kind: 'pause', summary: 'Pause collection', errors: ['cannot_pause'] },
      { kind: 'resume', summary: 'Resume a paused subscription', errors: ['not_paused'] },
    ] as const
  ).map(({ kind, summary, errors }) =>
    route({
      method: 'post',
      path: `/v1/subscriptions/:id/${kind}`,
      operationId: `${kind}Subscription`,
      tag: 'Subscriptions',
      summary,
      auth: 'secret',
      response: 'Subscription',
      errors: [...errors],
      use: ({ auth, steps }) => [auth(), steps],
      handler:
        ({ deps }) =>
        async (ctx) => {
          await commandAndPresent(ctx, deps, pathId(ctx.params.id), { kind });
        },
    }),
  ),
]);
