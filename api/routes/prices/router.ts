import { answerPage, areaOf, retrieveById, secretKey } from '../../route';
import { dbOf, tenantOf } from '../../context';
import { withTransaction } from '../../middleware/transaction';
import { createPrice } from '../../../src/domain/prices/create-price';
import { assertOnlyMutablePriceFields, findPrice, listPrices, updatePrice } from '../../../src/domain/prices/manage-prices';
import { pageParams, parseBody, parseQuery, pathId } from '../../validate';
import { createPriceSchema, listPricesQuery, updatePriceSchema } from './schemas';
import { presentPrice } from '../../../src/objects/prices';

const { route, area } = areaOf(withTransaction);

export const pricesRoutes = area('prices', [
  route({
    method: 'post',
    path: '/v1/prices',
    operationId: 'createPrice',
    tag: 'Prices',
    summary: 'Create a price',
    description:
      "Creates a one-time or recurring price for an existing product (an unknown `product` answers 404 resource_not_found). A recurring price needs `recurring` (interval, interval_count, licensed or metered usage); a metered price needs a `meter` that is not archived; with `tiers_mode` the ascending `tiers` replace `unit_amount`. `currency` defaults to the merchant's default currency and must be supported. Amounts are integers in minor units. Records no event.",
    body: createPriceSchema,
    status: 201,
    response: 'Price',
    ...secretKey('tx'),
    handler: () => async (ctx) => {
      const input = parseBody(createPriceSchema, ctx.state.body);
      ctx.status = 201;
      ctx.body = presentPrice(await createPrice(dbOf(ctx), tenantOf(ctx), input));
    },
  }),
  route({
    method: 'get',
    path: '/v1/prices',
    operationId: 'listPrices',
    tag: 'Prices',
    summary: 'List prices',
    description:
      "Lists the merchant's prices in the key's mode, newest first, one page at a time; `product` and `active` filter the list (a `product` the caller does not have answers 404 resource_not_found). Reads only: records no event.",
    query: listPricesQuery,
    list: 'Price',
    ...secretKey(),
    handler: answerPage((ctx) => {
      const filter = parseQuery(listPricesQuery, ctx.query);
      return listPrices(dbOf(ctx), pageParams(ctx.query), filter);
    }, presentPrice),
  }),
  route({
    method: 'get',
    path: '/v1/prices/:id',
    operationId: 'retrievePrice',
    tag: 'Prices',
    summary: 'Retrieve a price',
    description:
      'Retrieves one price by id, with its recurring terms, tiers and meter. An id of another merchant or mode answers 404 resource_missing. Reads only: records no event.',
    response: 'Price',
    ...secretKey(),
    handler: retrieveById(findPrice, presentPrice),
  }),
  route({
    method: 'patch',
    path: '/v1/prices/:id',
    operationId: 'updatePrice',
    tag: 'Prices',
    summary: 'Update a price (active, metadata, accounting code)',
    description:
      'Updates what may change on a price after creation: `active`, `accounting_code`, `vat_rate` and `metadata`. Any other creation field (amount, currency, recurring terms, tiers, meter) is refused with 400 parameter_not_allowed: create a new price instead and move subscriptions to it. Deactivating a price keeps existing subscriptions on it. Records no event.',
    body: updatePriceSchema,
    response: 'Price',
    ...secretKey('tx'),
    handler: () => async (ctx) => {
      const id = pathId(ctx.params.id);
      assertOnlyMutablePriceFields(ctx.state.body);
      const input = parseBody(updatePriceSchema, ctx.state.body);
      ctx.body = presentPrice(await updatePrice(dbOf(ctx), id, input));
    },
  }),
]);
