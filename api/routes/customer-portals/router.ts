// Customer portal links (docs/portal.md):
//   POST   /v1/customer_portals        201, the link with its url (shown once)
//   GET    /v1/customer_portals/{id}   the link (url null)
//   GET    /v1/customer_portals        ?customer=&limit= at most `limit` links, newest first, no cursor
//   DELETE /v1/customer_portals/{id}   revoke at once; a revoked link is answered unchanged
import Router from '@koa/router';
import type { AppDeps, AppState } from '../../context';
import { dbOf, tenantOf } from '../../context';
import type { Auth } from '../../middleware/auth';
import { transactional } from '../../middleware/transaction';
import { createPortalLink } from '../../../src/domain/customer-portals/create-portal-link';
import { findPortalLink, listPortalLinks } from '../../../src/domain/customer-portals/find-portal-links';
import { revokePortalLink } from '../../../src/domain/customer-portals/revoke-portal-link';
import { pageParams, parseBody, parseQuery, pathId } from '../../validate';
import { createPortalLinkSchema, listPortalLinksQuery } from './schemas';
import { portalLinkUrl, presentPortalLink } from './presenter';

export function customerPortalsRoutes(router: Router<AppState>, deps: AppDeps, auth: Auth): void {
  const tx = transactional(deps);

  router.post('/v1/customer_portals', auth(), tx, async (ctx) => {
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
  });

  router.get('/v1/customer_portals', auth(), async (ctx) => {
    const q = parseQuery(listPortalLinksQuery, ctx.query);
    const page = await listPortalLinks(dbOf(ctx), { customerId: q.customer }, pageParams(ctx.query));
    const now = new Date();
    ctx.body = { data: page.data.map((l) => presentPortalLink(l, now)), has_more: page.hasMore };
  });

  router.get('/v1/customer_portals/:id', auth(), async (ctx) => {
    ctx.body = presentPortalLink(await findPortalLink(dbOf(ctx), pathId(ctx.params.id)), new Date());
  });

  router.delete('/v1/customer_portals/:id', auth(), tx, async (ctx) => {
    const now = new Date();
    ctx.body = presentPortalLink(await revokePortalLink(dbOf(ctx), pathId(ctx.params.id), now), now);
  });
}
