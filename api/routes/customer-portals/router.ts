// Customer portal links (docs/portal.md):
//   POST   /v1/customer_portals        201, the link with its url (shown once)
//   GET    /v1/customer_portals/{id}   the link (url null)
//   GET    /v1/customer_portals        ?customer=&limit= at most `limit` links, newest first, no cursor
//   DELETE /v1/customer_portals/{id}   revoke at once; a revoked link is answered unchanged
import { areaOf, secretKey } from '../../route';
import { dbOf, tenantOf } from '../../context';
import { withTransaction } from '../../middleware/transaction';
import { createPortalLink } from '../../../src/domain/customer-portals/create-portal-link';
import { findPortalLink, listPortalLinks } from '../../../src/domain/customer-portals/find-portal-links';
import { revokePortalLink } from '../../../src/domain/customer-portals/revoke-portal-link';
import { pageParams, parseBody, parseQuery, pathId } from '../../validate';
import { createPortalLinkSchema, listPortalLinksQuery } from './schemas';
import { portalLinkUrl, presentPortalLink } from './presenter';

const { route, area } = areaOf(withTransaction);

export const customerPortalsRoutes = area('customer-portals', [
  route({
    method: 'post',
    path: '/v1/customer_portals',
    operationId: 'createCustomerPortal',
    tag: 'Customer portal',
    summary: 'Create a customer portal link (its url is shown once)',
    description:
      "Creates a link that opens the customer self-service portal for one customer (invoices and credit notes, payment methods, subscriptions, billing details). The `url` carries a secret token and is in this response only (null when read later and in an Idempotency-Key replay; only the token's hash is stored). The link expires after `expires_in` seconds (60 to 86,400; default 3,600); with `reusable: false` it opens once. Records no webhook event.",
    body: createPortalLinkSchema,
    status: 201,
    response: 'CustomerPortal',
    ...secretKey('tx'),
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
    description:
      'Lists portal links, newest first, optionally of one `customer` (an unknown customer answers 404). Each shows its status (`active`, `consumed`, `expired`, `revoked`), expiry and last access; `url` is always null, as the token is not stored. Reads only.',
    query: listPortalLinksQuery,
    list: 'CustomerPortal',
    ...secretKey(),
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
    description:
      'Returns one portal link with its status (`active`, `consumed` for a single-use link already opened, `expired`, `revoked`), expiry and last access. `url` is null: only the creation response carries it. Reads only.',
    response: 'CustomerPortal',
    ...secretKey(),
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
    description:
      'Revokes a portal link at once: it no longer opens, and portal sessions opened from it end at their next request. Answers the link with status `revoked`; revoking a revoked link answers it unchanged. Records no webhook event.',
    response: 'CustomerPortal',
    ...secretKey('tx'),
    handler: () => async (ctx) => {
      const now = new Date();
      ctx.body = presentPortalLink(await revokePortalLink(dbOf(ctx), pathId(ctx.params.id), now), now);
    },
  }),
]);
