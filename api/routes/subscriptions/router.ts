// Subscriptions (docs/subscriptions.md). Reads come from the database; every change after
// creation is a command through runSubscriptionCommand (src/domain/subscriptions/), and the
// answer is the subscription as the database has it once the workflow applied the change.
import { answerPage, areaOf, secretKey } from '../../route';
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
    description:
      "Subscribes an existing customer to 1–20 recurring prices of one currency and interval (one-time prices belong on invoice items). `charge_automatically` (the default) needs the customer's default payment method; `send_invoice` needs a kennitala and ISK. Without a trial the first invoice is written as a draft for the first period; with `trial_period_days` the subscription starts `trialing` and the trial is the first period. A customer on a test clock subscribes at the clock's time, and a clock that is advancing answers 409 invalid_state. Records `subscription.created`; the subscription's workflow, started after commit, finalizes and collects the first invoice and runs every later period.",
    body: createSubscriptionSchema,
    status: 201,
    response: 'Subscription',
    errors: ['invalid_subscription', 'invalid_state'],
    ...secretKey('tx'),
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
    description:
      "Lists the merchant's subscriptions in the key's mode, newest first, one page at a time, each with its items; `customer` and `status` filter the list. Reads only: records no event.",
    query: listSubscriptionsQuery,
    list: 'Subscription',
    ...secretKey(),
    handler: answerPage(
      (ctx) => {
        const q = parseQuery(listSubscriptionsQuery, ctx.query);
        return listSubscriptions(dbOf(ctx), { customerId: q.customer, status: q.status }, pageParams(ctx.query));
      },
      (s) => presentSubscription(s.subscription, s.items),
    ),
  }),
  route({
    method: 'get',
    path: '/v1/subscriptions/:id',
    operationId: 'retrieveSubscription',
    tag: 'Subscriptions',
    summary: 'Retrieve a subscription',
    description:
      'Retrieves one subscription by id with its items, status, current period, pending cancellation, pause and discount. An id of another merchant or mode answers 404 resource_missing. Reads only: records no event.',
    response: 'Subscription',
    ...secretKey(),
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
    description:
      "Changes a subscription's `cancel_at_period_end`, `discount` (null removes it), `collection_method` (with `days_until_due`, under the rules of create; open invoices keep their method) or `metadata` (a patch: null values remove keys). The change is applied by the subscription's workflow under the same lock as its billing steps, and a subscription whose test clock is advancing answers 409 invalid_state. Answers the resulting subscription and records `subscription.updated`.",
    body: updateSubscriptionSchema,
    response: 'Subscription',
    errors: ['invalid_subscription', 'invalid_state'],
    ...secretKey('steps'),
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
    description:
      'Cancels a subscription now (the default) or, with `at_period_end: true`, at the end of the current period. Now: the status becomes `canceled` with `canceled_at` and `ended_at` set, there is no final invoice and no proration credit, and invoices already issued are still collected; records `subscription.canceled`. At period end: `cancel_at_period_end` is set and the status is unchanged until the final period is billed; records `subscription.updated`. Canceling a canceled subscription returns it unchanged and records nothing.',
    body: cancelSubscriptionSchema,
    response: 'Subscription',
    errors: ['invalid_state'],
    ...secretKey('steps'),
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
      {
        kind: 'uncancel',
        summary: 'Undo a cancellation at period end',
        description:
          "Clears a pending cancellation set with `at_period_end: true`, so the subscription renews as before. A subscription without a pending cancellation, or one already canceled, answers 409 cannot_uncancel. Applied by the subscription's workflow; answers the subscription and records `subscription.updated`.",
        errors: ['cannot_uncancel'],
      },
      {
        kind: 'pause',
        summary: 'Pause collection',
        description:
          'Pauses an `active` or `trialing` subscription (any other status answers 409 cannot_pause): its status becomes `paused` and billing stops. The period already paid in advance is not refunded; periods keep rolling without invoices and their usage is not billed, and a trial that ends while paused is over. Records `subscription.paused`.',
        errors: ['cannot_pause'],
      },
      {
        kind: 'resume',
        summary: 'Resume a paused subscription',
        description:
          'Resumes a `paused` subscription (any other status answers 409 not_paused): it returns to `active`, or to `trialing` if its trial has not ended. The rest of the current period is free; billing resumes at its end, where the next invoice bills the next period in advance. Records `subscription.resumed`.',
        errors: ['not_paused'],
      },
    ] as const
  ).map(({ kind, summary, description, errors }) =>
    route({
      method: 'post',
      path: `/v1/subscriptions/:id/${kind}`,
      operationId: `${kind}Subscription`,
      tag: 'Subscriptions',
      summary,
      description,
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
