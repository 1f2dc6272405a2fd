import Router from '@koa/router';
import type { AppDeps, AppState } from '../../context';
import { dbOf, tenantOf } from '../../context';
import type { Auth } from '../../middleware/auth';
import { transactional } from '../../middleware/transaction';
import { createProduct, findProduct, listProducts, updateProduct } from '../../../src/domain/products/manage-products';
import { pageParams, parseBody, parseQuery, pathId } from '../../validate';
import { createProductSchema, listProductsQuery, updateProductSchema } from './schemas';
import { presentProduct } from '../../../src/objects/products';

export function productsRoutes(router: Router<AppState>, deps: AppDeps, auth: Auth): void {
  const tx = transactional(deps);

  router.post('/v1/products', auth(), tx, async (ctx) => {
    const input = parseBody(createProductSchema, ctx.state.body);
    ctx.status = 201;
    ctx.body = presentProduct(await createProduct(dbOf(ctx), tenantOf(ctx), input));
  });

  router.get('/v1/products', auth(), async (ctx) => {
    const filter = parseQuery(listProductsQuery, ctx.query);
    const page = await listProducts(dbOf(ctx), pageParams(ctx.query), filter);
    ctx.body = { data: page.data.map(presentProduct), has_more: page.hasMore };
  });

  router.get('/v1/products/:id', auth(), async (ctx) => {
    ctx.body = presentProduct(await findProduct(dbOf(ctx), pathId(ctx.params.id)));
  });

  router.patch('/v1/products/:id', auth(), tx, async (ctx) => {
    const id = pathId(ctx.params.id);
    const input = parseBody(updateProductSchema, ctx.state.body);
    ctx.body = presentProduct(await updateProduct(dbOf(ctx), id, input));
  });
}
