// Subscription items (docs/subscriptions.md "Items and proration"). Changes go to the
// subscription's workflow as Updates, like every other change of a running subscription.
import { areaOf, retrieveById, secretKey } from '../../route';
import { dbOf, scopeOf, type AppContext } from '../../context';
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

/** The item the path names, the request's input, then the item's subscription: read in that order. */
async function itemChange<I>(ctx: AppContext, parse: () => I) {
  const db = dbOf(ctx);
  const item = await findSubscriptionItem(db, pathId(ctx.params.id));
  const input = parse();
  const sub = await requireSubscription(db, item.subscriptionId, 'id');
  return { db, item, input, sub };
}

export const subscriptionItemsRoutes = area('subscription-items', [
  route({
    method: 'post',
    path: '/v1/subscription_items',
    operationId: 'createSubscriptionItem',
    tag: 'Subscription items',
    summary: 'Add a price to a subscription',
    description:
      "Adds a price to a running subscription; the price must share the subscription's currency and interval and must not already be on it. With `proration_behavior` `create_prorations` (the default) a licensed change becomes pending proration items billed on the next invoice; `always_invoice` also invoices them at once; `none` prorates nothing. No prorations are made while trialing, paused or unpaid, nor for metered items. Applied by the subscription's workflow; answers 201 with the item and records `subscription.updated`.",
    body: createSubscriptionItemSchema,
    status: 201,
    response: 'SubscriptionItem',
    errors: ['invalid_subscription', 'invalid_state'],
    ...secretKey('steps'),
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
    description:
      'Retrieves one subscription item by id: its price, quantity, included units and metadata. An id of another merchant or mode answers 404 resource_missing. Reads only: records no event.',
    response: 'SubscriptionItem',
    ...secretKey(),
    handler: retrieveById(findSubscriptionItem, presentSubscriptionItem),
  }),
  route({
    method: 'post',
    path: '/v1/subscription_items/:id',
    operationId: 'updateSubscriptionItem',
    tag: 'Subscription items',
    summary: 'Update a subscription item',
    description:
      "Changes a subscription item's quantity, `included_units`, `credit_rollover` (metered items) or metadata (a patch: null values remove keys); its price cannot change (add the new price and remove this item instead). `proration_behavior` decides whether a licensed change credits the unused time and charges the remaining time as pending invoice items (`create_prorations`, the default), also invoices them at once (`always_invoice`), or prorates nothing (`none`). Applied by the subscription's workflow; records `subscription.updated`.",
    body: updateSubscriptionItemSchema,
    response: 'SubscriptionItem',
    errors: ['invalid_subscription', 'invalid_state'],
    ...secretKey('steps'),
    handler:
      ({ deps }) =>
      async (ctx) => {
        const { db, item, input, sub } = await itemChange(ctx, () => parseBody(updateSubscriptionItemSchema, ctx.state.body));
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
    description:
      'Removes an item from a subscription: it is gone for the API and for billing at once. The last item cannot be removed (400 invalid_subscription: cancel the subscription instead). `proration_behavior` defaults to `none` here; `create_prorations` credits the unused time of a licensed item on the next invoice. Answers `{ id, object, subscription, deleted: true }` and records `subscription.updated`.',
    query: deleteSubscriptionItemQuery,
    response: 'DeletedSubscriptionItem',
    errors: ['invalid_subscription', 'invalid_state'],
    ...secretKey('steps'),
    handler:
      ({ deps }) =>
      async (ctx) => {
        const { db, item, input: q, sub } = await itemChange(ctx, () => parseQuery(deleteSubscriptionItemQuery, ctx.query));
        await runSubscriptionCommand(deps, scopeOf(ctx), sub, { kind: 'delete_item', itemId: item.id, prorationBehavior: q.proration_behavior ?? 'none' });
        const after = await db.subscriptionItem.findFirst({ where: { id: item.id } });
        if (!after) throw errors.resourceMissing(`No such subscription item: '${item.id}'`, 'id');
        ctx.body = presentDeletedSubscriptionItem(after);
      },
  }),
]);
