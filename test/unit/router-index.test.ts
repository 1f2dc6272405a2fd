// The indexed route matching of api/router-index.ts must give exactly @koa/router's own result
// (the same layers, in the same order) for any request path: checked over every declared route's
// path (with sample parameter values, a trailing slash, other letter cases, one segment more) and
// over random paths built from the routes' own segments.
import assert from 'node:assert/strict';
import Router from '@koa/router';
import fc from 'fast-check';
import { AREAS } from '../../api/areas';
import { declarationsOf } from '../../api/route';
import { indexRoutes, literalPrefix } from '../../api/router-index';

type Match = { path: unknown[]; pathAndMethod: unknown[]; route: boolean };
type Matcher = { stack: unknown[]; match(path: string, method: string): Match };

/** A router with every declared route (and a few layers of the kinds the index must not skip). */
function buildRouter(): Router {
  const router = new Router();
  const noop = async () => undefined;
  router.use(noop); // a middleware layer on every path
  for (const d of declarationsOf(AREAS)) {
    if (d.outsideRouter) continue;
    router[d.method](d.path, noop);
  }
  router.get(/^\/v1\/re(gexp)?$/i, noop); // a RegExp path
  router.get('/v1/:anything/tail', noop); // a parameter in the second segment
  router.use('/portal', noop); // a prefix middleware
  return router;
}

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

function sameMatch(plain: Matcher, indexed: Matcher, path: string, method: string): void {
  const a = plain.match(path, method);
  const b = indexed.match(path, method);
  const positions = (m: Match, stack: unknown[]) => ({
    path: m.path.map((l) => stack.indexOf(l)),
    pathAndMethod: m.pathAndMethod.map((l) => stack.indexOf(l)),
    route: m.route,
  });
  assert.deepEqual(positions(b, indexed.stack), positions(a, plain.stack), `${method} ${path}`);
}

describe('indexed route matching (api/router-index.ts)', () => {
  const plain = buildRouter() as unknown as Matcher;
  const indexedRouter = buildRouter();
  indexRoutes(indexedRouter);
  const indexed = indexedRouter as unknown as Matcher;
  const declared = declarationsOf(AREAS)
    .filter((d) => !d.outsideRouter)
    .map((d) => d.path);
  const concrete = declared.map((p) => p.replace(/:[A-Za-z_]+/g, 'cus_0123456789'));

  it('matches every declared route exactly as the router does, in every variant of its path', () => {
    let routes = 0;
    for (const p of [...concrete, '/', '', '/v1', '/v1/', '/V1/CUSTOMERS', '/v1/re', '/v1/x/tail', '/nope/v1/customers', '/v1//customers', '/portal/x/y']) {
      const variants = [p, `${p}/`, p.toUpperCase(), `${p}/extra`, p.replace('/v1/', '/v2/'), `${p}%2F`, p.slice(0, -1)];
      for (const v of variants) for (const m of METHODS) sameMatch(plain, indexed, v, m);
      if (plain.match(p, 'GET').route || plain.match(p, 'POST').route) routes++;
    }
    assert.ok(routes > 100, `only ${routes} declared paths matched a route`);
  });

  it('matches random paths made of the routes’ segments exactly as the router does', () => {
    const segments = [...new Set(concrete.flatMap((p) => p.split('/')))];
    const segment = fc.oneof(
      fc.constantFrom(...segments),
      fc.constantFrom(...segments).map((s) => s.toUpperCase()),
      fc.string({ maxLength: 6 }),
    );
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 5 }), fc.constantFrom(...METHODS), fc.boolean(), (parts, method, slash) => {
        sameMatch(plain, indexed, `/${parts.join('/')}${slash ? '/' : ''}`, method);
      }),
      { numRuns: 3000 },
    );
  });

  it('rebuilds its index when a route is added later', () => {
    const router = buildRouter();
    indexRoutes(router);
    router.get('/v1/added_later/:id', async () => undefined);
    assert.equal((router as unknown as Matcher).match('/v1/added_later/x1', 'GET').route, true);
  });

  it('reads a layer’s literal prefix up to its first non-literal segment', () => {
    const layer = (path: string | RegExp) => ({ path, methods: [], opts: {}, match: () => false });
    assert.deepEqual(literalPrefix(layer('/v1/Customers/:id')), ['v1', 'customers']);
    assert.deepEqual(literalPrefix(layer('/checkout/:id')), ['checkout']);
    assert.deepEqual(literalPrefix(layer('/portal')), ['portal']);
    assert.deepEqual(literalPrefix(layer('/{:x}/y')), []);
    assert.deepEqual(literalPrefix(layer('/')), []);
    assert.deepEqual(literalPrefix(layer(/^\/v1/)), []);
  });
});
