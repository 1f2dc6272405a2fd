import { areaOf } from '../../route';
import { dbOf, tenantOf } from '../../context';
import { transactional } from '../../middleware/transaction';
import { createPrice } from '../../../src/domain/prices/create-price';
import { assertOnlyMutablePriceFields, findPrice, listPrices, updatePrice } from '../../../src/domain/prices/manage-prices';
import { pageParams, parseBody, parseQuery, pathId } from '../../validate';
import { createPriceSchema, listPricesQuery, updatePriceSchema } from './schemas';
import { presentPrice } from '../../../src/objects/prices';

const { route, area } = areaOf((deps) => {
  const tx = transactional(deps);
  return { tx };
});

export const pricesRoutes = area('prices', [
  route({
    method: 'post',
    path: '/v1/prices',
    operationId: 'createPrice',
    tag: 'Prices',
    summary: 'Create a price',
    auth: 'secret',
    body: createPriceSchema,
    status: 201,
    response: 'Price',
    errors: ['invalid_price_type'],
    use: ({ auth, tx }) => [auth(), tx],
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
    auth: 'secret',
    query: listPricesQuery,
    list: 'Price',
    use: ({ auth }) => [auth()],
    handler: () => async (ctx) => {
      const filter = parseQuery(listPricesQuery, ctx.query);
      const page = await listPrices(dbOf(ctx), pageParams(ctx.query), filter);
      ctx.body = { data: page.data.map(presentPrice), has_more: page.hasMore };
    },
  }),
  route({
    method: 'get',
    path: '/v1/prices/:id',
    operationId: 'retrievePrice',
    tag: 'Prices',
    summary: 'Retrieve a price',
    auth: 'secret',
    response: 'Price',
    use: ({ auth }) => [auth()],
    handler: () => async (ctx) => {
      ctx.body = presentPrice(await findPrice(dbOf(ctx), pathId(ctx.params.id)));
    },
  }),
  route({
    method: 'patch',
    path: '/v1/prices/:id',
    operationId: 'updatePrice',
    tag: 'Prices',
    summary: 'Update a price (active, metadata, accounting code)',
    auth: 'secret',
    body: updatePriceSchema,
    response: 'Price',
    use: ({ auth, tx }) => [auth(), tx],
    handler: () => async (ctx) => {
      const id = pathId(ctx.params.id);
      assertOnlyMutablePriceFields(ctx.state.body);
      const input = parseBody(updatePriceSchema, ctx.state.body);
      ctx.body = presentPrice(await updatePrice(dbOf(ctx), id, input));
    },
  }),
]);
