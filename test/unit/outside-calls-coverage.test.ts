// Every declared route and every registered activity has a row in the table of who watches it for
// a transaction held across a call to Temporal or an outside system (test/support/outside-calls.ts,
// docs/architecture.md). A new route or activity fails here until it gets one; the watching tests
// check that the routes their rows name were driven.
import assert from 'node:assert/strict';
import { AREAS } from '../../api/areas';
import { declarationsOf } from '../../api/route';
import { createActivities, type ActivityDeps } from '../../activities';
import { ACTIVITY_COVERAGE, ROUTE_COVERAGE, routeOfRequest, type Coverage } from '../support/outside-calls';

const kinds = (c: Coverage) => Object.keys(c);

describe('the transaction-across-a-call coverage table', () => {
  it('has a row for every declared route, and none for a route that does not exist', () => {
    const declared = declarationsOf(AREAS).map((d) => `${d.method.toUpperCase()} ${d.path}`);
    assert.deepEqual(
      declared.filter((r) => !(r in ROUTE_COVERAGE)),
      [],
      'routes without a row in test/support/outside-calls.ts',
    );
    assert.deepEqual(
      Object.keys(ROUTE_COVERAGE).filter((r) => !declared.includes(r)),
      [],
      'rows naming no declared route',
    );
  });

  it('has a row for every activity the worker registers, and none for an activity that does not exist', () => {
    // Building the activities touches none of their dependencies.
    const registered = Object.keys(createActivities({ db: {}, config: {}, gateways: {}, log: () => undefined } as unknown as ActivityDeps));
    assert.ok(registered.length > 20, `${registered.length} activities`);
    assert.deepEqual(
      registered.filter((a) => !(a in ACTIVITY_COVERAGE)),
      [],
      'activities without a row',
    );
    assert.deepEqual(
      Object.keys(ACTIVITY_COVERAGE).filter((a) => !registered.includes(a)),
      [],
      'rows naming no activity',
    );
  });

  it('every row names exactly one of watch, accounting or none, with a reason', () => {
    for (const [name, c] of [...Object.entries(ROUTE_COVERAGE), ...Object.entries(ACTIVITY_COVERAGE)]) {
      assert.equal(kinds(c).length, 1, name);
      assert.ok(String(Object.values(c)[0]).length > 3, `${name}: a reason`);
    }
  });

  it('a route whose declaration runs it step-wise (it waits on something outside) is never `none`', () => {
    // The middleware a declaration uses, named: its `use` is called with a kit whose every
    // member names itself (iterable too, for the portal's action lists).
    const kit = new Proxy(
      {},
      {
        get: (_t, p) =>
          typeof p !== 'string'
            ? undefined
            : Object.assign((..._args: unknown[]) => ({ kit: `${p}()` }), {
                kit: p,
                *[Symbol.iterator]() {
                  yield { kit: p };
                },
              }),
      },
    );
    const stepwise: string[] = [];
    for (const d of declarationsOf(AREAS)) {
      if (!('use' in d) || !d.use) continue;
      const names = (d.use(kit as never) as Array<{ kit?: string } | undefined>).map((m) => m?.kit ?? '?');
      if (names.includes('steps') || names.includes('outsideAction')) stepwise.push(`${d.method.toUpperCase()} ${d.path}`);
    }
    assert.ok(stepwise.length >= 15, stepwise.join(', '));
    // And what the declarations do not show: the checkout confirms and the health probes.
    stepwise.push('POST /checkout/api/sessions/:id/confirm', 'POST /checkout/api/embedded/confirm', 'GET /readyz', 'GET /healthz');
    assert.deepEqual(
      stepwise.filter((r) => 'none' in ROUTE_COVERAGE[r]!),
      [],
    );
  });

  it('maps a request to the declaration that serves it, in mount order', () => {
    const declared = declarationsOf(AREAS);
    assert.equal(routeOfRequest(declared, 'GET', '/checkout/embedded?parent_origin=x'), 'GET /checkout/embedded');
    assert.equal(routeOfRequest(declared, 'GET', '/checkout/cs_123'), 'GET /checkout/:id');
    assert.equal(routeOfRequest(declared, 'POST', '/v1/subscriptions/sub_1/cancel'), 'POST /v1/subscriptions/:id/cancel');
    assert.equal(routeOfRequest(declared, 'POST', '/v1/subscriptions/sub_1'), 'POST /v1/subscriptions/:id');
    assert.equal(routeOfRequest(declared, 'DELETE', '/v1/nothing'), null);
  });
});
