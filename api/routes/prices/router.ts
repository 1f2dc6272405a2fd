import Router from '@koa/router';
import type { AppDeps, AppState } from '../../context';
import { dbOf, tenantOf } from '../../context';
import type { Auth } from '../../middleware/auth';
import { transactional } from '../../middleware/transaction';
import { createPrice } from '../../../src/domain/prices/create-price';
import { assertOnlyMutablePriceFields, findPrice, listPrices, updatePrice } from '../../../src/domain/prices/manage-prices';
import { pageParams, parseBody, parseQuery, pathId } from '../../validate';
import { createPriceSchema, listPricesQuery, updatePriceSchema } from './schemas';
import { presentPrice } from '../../../src/objects/prices';

export function pricesRoutes(router: Router<AppState>, deps: AppDeps, auth: Auth): void {
  const tx = transactional(deps);

  router.post('/v1/prices', auth(), tx, async (ctx) => {
    const input = parseBody(createPriceSchema, ctx.state.body);
    ctx.status = 201;
    ctx.body = presentPrice(await createPrice(dbOf(ctx), tenantOf(ctx), input));
  });

  router.get('/v1/prices', auth(), async (ctx) => {
    const filter = parseQuery(listPricesQuery, ctx.query);
    const page = await listPrices(dbOf(ctx), pageParams(ctx.query), filter);
    ctx.body = { data: page.data.map(presentPrice), has_more: page.hasMore };
  });

  router.get('/v1/prices/:id', auth(), async (ctx) => {
    ctx.body = presentPrice(await findPrice(dbOf(ctx), pathId(ctx.params.id)));
  });

  router.patch('/v1/prices/:id', auth(), tx, async (ctx) => {
    const id = pathId(ctx.params.id);
    assertOnlyMutablePriceFields(ctx.state.body);
    const input = parseBody(updatePriceSchema, ctx.state.body);
    ctx.body = presentPrice(await updatePrice(dbOf(ctx), id, input));
  });
}
