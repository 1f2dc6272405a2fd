// Subscriptions (docs/subscriptions.md). Reads come from the database; every change after
// creation is a command through runSubscriptionCommand (src/domain/subscriptions/), and the
// answer is the subscription as the database has it once the workflow applied the change.
import Router from '@koa/router';
import { dispatchAfterCommit } from '../../../src/domain/dispatch-after-commit';
import type { AppContext, AppDeps, AppState } from '../../context';
import { dbOf, scopeOf, tenantOf } from '../../context';
import type { Auth } from '../../middleware/auth';
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

export function subscriptionsRoutes(router: Router<AppState>, deps: AppDeps, auth: Auth): void {
  const tx = transactional(deps);
  // Commands wait on the subscription's workflow (whose activity needs a connection of the worker's
  // pool): no request transaction is held across that wait (docs/idempotency.md "Step-wise requests").
  const steps = stepwise(deps);

  router.post('/v1/subscriptions', auth(), tx, async (ctx) => {
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
  });

  router.get('/v1/subscriptions', auth(), async (ctx) => {
    const q = parseQuery(listSubscriptionsQuery, ctx.query);
    const page = await listSubscriptions(dbOf(ctx), { customerId: q.customer, status: q.status }, pageParams(ctx.query));
    ctx.body = { data: page.data.map((s) => presentSubscription(s.subscription, s.items)), has_more: page.hasMore };
  });

  router.get('/v1/subscriptions/:id', auth(), async (ctx) => {
    const { subscription, items } = await findSubscriptionWithItems(dbOf(ctx), pathId(ctx.params.id));
    ctx.body = presentSubscription(subscription, items);
  });

  router.post('/v1/subscriptions/:id', auth(), steps, async (ctx) => {
    const id = pathId(ctx.params.id);
    const input = parseBody(updateSubscriptionSchema, ctx.state.body);
    const changes = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
    await commandAndPresent(ctx, deps, id, { kind: 'update', changes });
  });

  router.post('/v1/subscriptions/:id/cancel', auth(), steps, async (ctx) => {
    const id = pathId(ctx.params.id);
    const input = parseBody(cancelSubscriptionSchema, ctx.state.body);
    await commandAndPresent(ctx, deps, id, { kind: 'cancel', atPeriodEnd: input.at_period_end ?? false });
  });

  for (const kind of ['uncancel', 'pause', 'resume'] as const) {
    router.post(`/v1/subscriptions/:id/${kind}`, auth(), steps, async (ctx) => {
      await commandAndPresent(ctx, deps, pathId(ctx.params.id), { kind });
    });
  }
}
