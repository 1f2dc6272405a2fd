// Customer portal links (docs/portal.md):
//   POST   /v1/customer_portals        201, the link with its url (shown once)
//   GET    /v1/customer_portals/{id}   the link (url null)
//   GET    /v1/customer_portals        ?customer=&limit= at most `limit` links, newest first, no cursor
//   DELETE /v1/customer_portals/{id}   revoke at once; a revoked link is answered unchanged
import { areaOf } from '../../route';
import { dbOf, tenantOf } from '../../context';
import { transactional } from '../../middleware/transaction';
import { createPortalLink } from '../../../src/domain/customer-portals/create-portal-link';
import { findPortalLink, listPortalLinks } from '../../../src/domain/customer-portals/find-portal-links';
import { revokePortalLink } from '../../../src/domain/customer-portals/revoke-portal-link';
import { pageParams, parseBody, parseQuery, pathId } from '../../validate';
import { createPortalLinkSchema, listPortalLinksQuery } from './schemas';
import { portalLinkUrl, presentPortalLink } from './presenter';

const { route, area } = areaOf((deps) => {
  const tx = transactional(deps);
  return { tx };
});

export const customerPortalsRoutes = area('customer-portals', [
  route({
    method: 'post',
    path: '/v1/customer_portals',
    operationId: 'createCustomerPortal',
    tag: 'Customer portal',
    summary: 'Create a customer portal link (its url is shown once)',
    auth: 'secret',
    body: createPortalLinkSchema,
    status: 201,
    response: 'CustomerPortal',
    errors: ['url_not_allowed'],
    use: ({ auth, tx }) => [auth(), tx],
    handler:
      ({ deps }) =>
      async (ctx) => {
        const b = parseBody(createPortalLinkSchema, ctx.state.body);
        const now = new Date();
        const { link, token } = await createPortalLink(
          dbOf(ctx),
          tenantOf(ctx),
          { customerId: b.customer, expiresInSeconds: b.expires_in, reusable: b.reusable, metadata: b.metadata },
          now,
        );
        ctx.state.redactOnReplay = ['url'];
        ctx.status = 201;
        ctx.body = presentPortalLink(link, now, portalLinkUrl(deps.config.publicBaseUrl, token));
      },
  }),
  route({
    method: 'get',
    path: '/v1/customer_portals',
    operationId: 'listCustomerPortals',
    tag: 'Customer portal',
    summary: 'List customer portal links',
    auth: 'secret',
    query: listPortalLinksQuery,
    list: 'CustomerPortal',
    use: ({ auth }) => [auth()],
    handler: () => async (ctx) => {
      const q = parseQuery(listPortalLinksQuery, ctx.query);
      const page = await listPortalLinks(dbOf(ctx), { customerId: q.customer }, pageParams(ctx.query));
      const now = new Date();
      ctx.body = { data: page.data.map((l) => presentPortalLink(l, now)), has_more: page.hasMore };
    },
  }),
  route({
    method: 'get',
    path: '/v1/customer_portals/:id',
    operationId: 'retrieveCustomerPortal',
    tag: 'Customer portal',
    summary: 'Retrieve a customer portal link',
    auth: 'secret',
    response: 'CustomerPortal',
    use: ({ auth }) => [auth()],
    handler: () => async (ctx) => {
      ctx.body = presentPortalLink(await findPortalLink(dbOf(ctx), pathId(ctx.params.id)), new Date());
    },
  }),
  route({
    method: 'delete',
    path: '/v1/customer_portals/:id',
    operationId: 'revokeCustomerPortal',
    tag: 'Customer portal',
    summary: 'Revoke a customer portal link',
    auth: 'secret',
    response: 'CustomerPortal',
    use: ({ auth, tx }) => [auth(), tx],
    handler: () => async (ctx) => {
      const now = new Date();
      ctx.body = presentPortalLink(await revokePortalLink(dbOf(ctx), pathId(ctx.params.id), now), now);
    },
  }),
]);
