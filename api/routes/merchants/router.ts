import { route, area } from '../../route';
import { iso } from '../../../src/objects/iso';

export const merchantsRoutes = area('merchants', [
  route({
    method: 'get',
    path: '/v1/merchants/current',
    operationId: 'retrieveCurrentMerchant',
    tag: 'Merchant',
    summary: 'The merchant of the secret key',
    auth: 'secret_no_merchant',
    response: 'CurrentMerchant',
    use: ({ auth }) => [auth({ merchantHeaderOptional: true, allowPublishable: () => false })],
    handler: () => async (ctx) => {
      // Served from the authenticated key's merchant row (same lookup, cached with it).
      const a = ctx.state.auth!;
      ctx.body = { id: a.merchantId, name: a.merchantName, created_at: iso(a.merchantCreatedAt) };
    },
  }),
]);
