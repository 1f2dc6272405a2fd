// Subscription items (docs/subscriptions.md "Items and proration"). Changes go to the
// subscription's workflow as Updates, like every other change of a running subscription.
import { areaOf } from '../../route';
import { dbOf, scopeOf } from '../../context';
import { stepwise } from '../../middleware/transaction';
import { errors } from '../../../src/errors';
import { newId } from '../../../src/ids';
import { findSubscriptionItem, requireSubscription } from '../../../src/domain/subscriptions/find-subscriptions';
import { runSubscriptionCommand } from '../../../src/domain/subscriptions/run-subscription-command';
import { parseBody, parseQuery, pathId } from '../../validate';
import { createSubscriptionItemSchema, deleteSubscriptionItemQuery, updateSubscriptionItemSchema } from './schemas';
import { presentDeletedSubscriptionItem, presentSubscriptionItem } from '../../../src/objects/subscription-items';

const { route, area } = areaOf((deps) => {
  // Every change is an Update to the subscription's workflow: step-wise, no request transaction
  // held across the wait (docs/idempotency.md "Step-wise requests").
  const steps = stepwise(deps);
  return { steps };
});

export const subscriptionItemsRoutes = area('subscription-items', [
  route({
    method: 'post',
    path: '/v1/subscription_items',
    operationId: 'createSubscriptionItem',
    tag: 'Subscription items',
    summary: 'Add a price to a subscription',
    auth: 'secret',
    body: createSubscriptionItemSchema,
    status: 201,
    response: 'SubscriptionItem',
    errors: ['invalid_subscription', 'invalid_state'],
    use: ({ auth, steps }) => [auth(), steps],
    handler:
      ({ deps }) =>
      async (ctx) => {
        const input = parseBody(createSubscriptionItemSchema, ctx.state.body);
        const db = dbOf(ctx);
        const sub = await requireSubscription(db, input.subscription, 'subscription');
        const itemId = newId('subscriptionItem');
        const added = await runSubscriptionCommand(deps, scopeOf(ctx), sub, {
          kind: 'add_item',
          itemId,
          item: {
            price: input.price,
            quantity: input.quantity,
            credit_rollover: input.credit_rollover,
            included_units: input.included_units,
            metadata: (input.metadata ?? undefined) as Record<string, string> | undefined,
          },
          prorationBehavior: input.proration_behavior ?? 'create_prorations',
        });
        ctx.status = 201;
        // A resent request (same key, same update id) is answered with the item its first attempt added.
        ctx.body = presentSubscriptionItem(await findSubscriptionItem(db, added.objectId ?? itemId));
      },
  }),
  route({
    method: 'get',
    path: '/v1/subscription_items/:id',
    operationId: 'retrieveSubscriptionItem',
    tag: 'Subscription items',
    summary: 'Retrieve a subscription item',
    auth: 'secret',
    response: 'SubscriptionItem',
    use: ({ auth }) => [auth()],
    handler: () => async (ctx) => {
      ctx.body = presentSubscriptionItem(await findSubscriptionItem(dbOf(ctx), pathId(ctx.params.id)));
    },
  }),
  route({
    method: 'post',
    path: '/v1/subscription_items/:id',
    operationId: 'updateSubscriptionItem',
    tag: 'Subscription items',
    summary: 'Update a subscription item',
    auth: 'secret',
    body: updateSubscriptionItemSchema,
    response: 'SubscriptionItem',
    errors: ['invalid_subscription', 'invalid_state'],
    use: ({ auth, steps }) => [auth(), steps],
    handler:
      ({ deps }) =>
      async (ctx) => {
        const db = dbOf(ctx);
        const item = await findSubscriptionItem(db, pathId(ctx.params.id));
        const input = parseBody(updateSubscriptionItemSchema, ctx.state.body);
        const sub = await requireSubscription(db, item.subscriptionId, 'id');
        const changes = {
          ...(input.quantity !== undefined ? { quantity: input.quantity } : {}),
          ...(input.credit_rollover !== undefined ? { credit_rollover: input.credit_rollover } : {}),
          ...(input.included_units !== undefined ? { included_units: input.included_units } : {}),
          ...(input.metadata !== undefined ? { metadata: input.metadata as Record<string, string | null> } : {}),
        };
        await runSubscriptionCommand(deps, scopeOf(ctx), sub, {
          kind: 'update_item',
          itemId: item.id,
          changes,
          prorationBehavior: input.proration_behavior ?? 'create_prorations',
        });
        ctx.body = presentSubscriptionItem(await findSubscriptionItem(db, item.id));
      },
  }),
  route({
    method: 'delete',
    path: '/v1/subscription_items/:id',
    operationId: 'deleteSubscriptionItem',
    tag: 'Subscription items',
    summary: 'Remove a price from a subscription',
    auth: 'secret',
    query: deleteSubscriptionItemQuery,
    response: 'DeletedSubscriptionItem',
    errors: ['invalid_subscription', 'invalid_state'],
    use: ({ auth, steps }) => [auth(), steps],
    handler:
      ({ deps }) =>
      async (ctx) => {
        const db = dbOf(ctx);
        const item = await findSubscriptionItem(db, pathId(ctx.params.id));
        const q = parseQuery(deleteSubscriptionItemQuery, ctx.query);
        const sub = await requireSubscription(db, item.subscriptionId, 'id');
        await runSubscriptionCommand(deps, scopeOf(ctx), sub, { kind: 'delete_item', itemId: item.id, prorationBehavior: q.proration_behavior ?? 'none' });
        const after = await db.subscriptionItem.findFirst({ where: { id: item.id } });
        if (!after) throw errors.resourceMissing(`No such subscription item: '${item.id}'`, 'id');
        ctx.body = presentDeletedSubscriptionItem(after);
      },
  }),
]);
