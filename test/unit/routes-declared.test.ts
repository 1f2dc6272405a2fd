// A route cannot exist without its contract (docs/architecture.md "How to add a route"): the
// application router's routes are registered only from the declarations of api/areas.ts
// (api/route.ts registerAreas), never by calling the router directly. The merchant dashboard
// (api/dashboard/, a Koa app of its own outside the public document) is the one exception.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { AREAS } from '../../api/areas';
import { declarationsOf } from '../../api/route';

const ROOT = path.resolve(__dirname, '..', '..', '..');

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : /\.tsx?$/.test(name) ? [full] : [];
  });
}

describe('route declarations', () => {
  it('no file of api/ outside the dashboard registers a route on a router by hand', () => {
    const direct = /\brouter\.(get|post|put|patch|delete|options|head|all)\(/;
    const offenders = filesUnder(path.join(ROOT, 'api'))
      .filter((f) => !f.includes(`${path.sep}dashboard${path.sep}`) && !f.endsWith(`${path.sep}route.ts`))
      .filter((f) => direct.test(readFileSync(f, 'utf8')))
      .map((f) => path.relative(ROOT, f));
    assert.deepEqual(offenders, [], 'declare the route with route({...}) in its area (api/route.ts) instead');
  });

  it('declares every route once, each with a summary, a tag and who may call it', () => {
    const seen = new Set<string>();
    for (const d of declarationsOf(AREAS)) {
      const key = `${d.method.toUpperCase()} ${d.path}`;
      assert.ok(!seen.has(key), `${key} is declared twice`);
      seen.add(key);
      assert.ok(d.summary.trim().length > 0 && d.tag.trim().length > 0 && d.auth, `${key}: summary, tag and auth are required`);
      if (!d.outsideRouter) assert.equal(typeof d.handler, 'function', `${key}: a served route has a handler`);
    }
    assert.ok(seen.size > 140, `only ${seen.size} declarations`);
  });

  it('the detector above finds a hand-registered route (planted)', () => {
    const direct = /\brouter\.(get|post|put|patch|delete|options|head|all)\(/;
    assert.ok(direct.test("  router.get('/v1/x', auth(), async (ctx) => {"));
    assert.ok(!direct.test("  route({ method: 'get', path: '/v1/x' })"));
  });
});
