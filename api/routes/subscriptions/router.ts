// Subscriptions (docs/subscriptions.md). Reads come from the database; every change after
// creation goes to the subscription's workflow as an Update (./run-command.ts) and the answer
// is the subscription as the database has it once the workflow applied the change.
import Router from '@koa/router';
import type { AppContext, AppDeps, AppState } from '../../context';
import { dbOf, tenantOf } from '../../context';
import type { Auth } from '../../app';
import { transactional } from '../../middleware/transaction';
import { dispatchEvents } from '../../../src/events';
import type { SubscriptionCommand } from '../../../src/contracts/subscriptions';
import { createSubscription } from '../../../src/domain/subscriptions/create-subscription';
import { findSubscription, findSubscriptionWithItems, listSubscriptions } from '../../../src/domain/subscriptions/find-subscriptions';
import { commandOnEndedSubscription } from '../../../src/domain/subscriptions/ended-subscriptions';
import { ensureSubscriptionWorkflow } from '../../../src/domain/subscriptions/workflow-control';
import { pageParams, parseBody, parseQuery, pathId } from '../../validate';
import { cancelSubscriptionSchema, createSubscriptionSchema, listSubscriptionsQuery, updateSubscriptionSchema } from './schemas';
import { presentSubscription } from './presenter';
import { sendSubscriptionCommand, SubscriptionWorkflowEnded, workflowTarget } from './run-command';

/** Applies a command and answers with the resulting subscription. */
export async function commandAndPresent(ctx: AppContext, deps: AppDeps, id: string, command: SubscriptionCommand): Promise<void> {
  const db = dbOf(ctx);
  const sub = await findSubscription(db, id);
  try {
    await sendSubscriptionCommand(ctx, deps, sub, command);
  } catch (err) {
    if (!(err instanceof SubscriptionWorkflowEnded)) throw err;
    const events = await commandOnEndedSubscription(db, tenantOf(ctx), await findSubscription(db, id), command);
    ctx.state.afterCommit.push(async () => void (await dispatchEvents(deps, events)));
  }
  const { subscription, items } = await findSubscriptionWithItems(db, id);
  ctx.body = presentSubscription(subscription, items);
}

export function subscriptionsRoutes(router: Router<AppState>, deps: AppDeps, auth: Auth): void {
  const tx = transactional(deps);

  router.post('/v1/subscriptions', auth(), tx, async (ctx) => {
    const input = parseBody(createSubscriptionSchema, ctx.state.body);
    const tenant = tenantOf(ctx);
    const created = await createSubscription(dbOf(ctx), tenant, input, new Date());
    const s = created.subscription;
    // If this start is lost, the reconciler starts the workflow within a minute.
    ctx.state.afterCommit.push(async () => {
      await ensureSubscriptionWorkflow(await workflowTarget(deps), {
        subscriptionId: s.id,
        merchantId: tenant.merchantId,
        mode: tenant.mode,
        customerId: s.customerId,
        status: s.status,
        clockTime: created.clockTime?.toISOString() ?? null,
      });
    });
    ctx.state.afterCommit.push(async () => void (await dispatchEvents(deps, created.events)));
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

  router.post('/v1/subscriptions/:id', auth(), tx, async (ctx) => {
    const id = pathId(ctx.params.id);
    const input = parseBody(updateSubscriptionSchema, ctx.state.body);
    const changes = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
    await commandAndPresent(ctx, deps, id, { kind: 'update', changes });
  });

  router.post('/v1/subscriptions/:id/cancel', auth(), tx, async (ctx) => {
    const id = pathId(ctx.params.id);
    const input = parseBody(cancelSubscriptionSchema, ctx.state.body);
    await commandAndPresent(ctx, deps, id, { kind: 'cancel', atPeriodEnd: input.at_period_end ?? false });
  });

  for (const kind of ['uncancel', 'pause', 'resume'] as const) {
    router.post(`/v1/subscriptions/:id/${kind}`, auth(), tx, async (ctx) => {
      await commandAndPresent(ctx, deps, pathId(ctx.params.id), { kind });
    });
  }
}
