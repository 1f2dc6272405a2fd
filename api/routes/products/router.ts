import { answerPage, areaOf, retrieveById, secretKey } from '../../route';
import { dbOf, tenantOf } from '../../context';
import { withTransaction } from '../../middleware/transaction';
import { createProduct, findProduct, listProducts, updateProduct } from '../../../src/domain/products/manage-products';
import { pageParams, parseBody, parseQuery, pathId } from '../../validate';
import { createProductSchema, listProductsQuery, updateProductSchema } from './schemas';
import { presentProduct } from '../../../src/objects/products';

const { route, area } = areaOf(withTransaction);

export const productsRoutes = area('products', [
  route({
    method: 'post',
    path: '/v1/products',
    operationId: 'createProduct',
    tag: 'Products',
    summary: 'Create a product',
    description:
      "Creates a product in the key's mode: a `name` (trimmed, not empty), an optional description, a VAT rate (null: the merchant's default), `active` (default true) and metadata. Prices are attached to a product afterwards with POST /v1/prices. Records no event.",
    body: createProductSchema,
    status: 201,
    response: 'Product',
    ...secretKey('tx'),
    handler: () => async (ctx) => {
      const input = parseBody(createProductSchema, ctx.state.body);
      ctx.status = 201;
      ctx.body = presentProduct(await createProduct(dbOf(ctx), tenantOf(ctx), input));
    },
  }),
  route({
    method: 'get',
    path: '/v1/products',
    operationId: 'listProducts',
    tag: 'Products',
    summary: 'List products',
    description:
      "Lists the merchant's products in the key's mode, newest first, one page at a time; `active` filters on active or inactive products. Reads only: records no event.",
    query: listProductsQuery,
    list: 'Product',
    ...secretKey(),
    handler: answerPage((ctx) => {
      const filter = parseQuery(listProductsQuery, ctx.query);
      return listProducts(dbOf(ctx), pageParams(ctx.query), filter);
    }, presentProduct),
  }),
  route({
    method: 'get',
    path: '/v1/products/:id',
    operationId: 'retrieveProduct',
    tag: 'Products',
    summary: 'Retrieve a product',
    description: 'Retrieves one product by id; an id of another merchant or mode answers 404 resource_missing. Reads only: records no event.',
    response: 'Product',
    ...secretKey(),
    handler: retrieveById(findProduct, presentProduct),
  }),
  route({
    method: 'patch',
    path: '/v1/products/:id',
    operationId: 'updateProduct',
    tag: 'Products',
    summary: 'Update a product',
    description:
      "Updates a product's name, description, active flag, VAT rate or metadata; only supplied fields change and a body without changes returns the product as it is. Deactivating a product keeps existing subscriptions running, but new subscriptions refuse its prices. Records no event.",
    body: updateProductSchema,
    response: 'Product',
    ...secretKey('tx'),
    handler: () => async (ctx) => {
      const id = pathId(ctx.params.id);
      const input = parseBody(updateProductSchema, ctx.state.body);
      ctx.body = presentProduct(await updateProduct(dbOf(ctx), id, input));
    },
  }),
]);
