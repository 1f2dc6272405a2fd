import { route, area } from '../../route';
import { iso } from '../../../src/objects/iso';

export const merchantsRoutes = area('merchants', [
  route({
    method: 'get',
    path: '/v1/merchants/current',
    operationId: 'retrieveCurrentMerchant',
    tag: 'Merchant',
    summary: 'The merchant of the secret key',
    description:
      'Returns the id, name and creation time of the merchant the secret key belongs to. `X-Merchant-Id` may be left out here (the only keyed operation where it may), so an integrator can learn the merchant id from the key alone. A publishable key is refused. Reads only; records no event.',
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
