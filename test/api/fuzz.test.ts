// The route-wide fuzz test: malformed requests for EVERY route the application's router holds,
// derived from the router itself (methods, paths, path parameters) and from the schemas the routes
// validate with (observed through api/validate.ts observeSchemas), so a new route is covered
// without touching this file. For every request it asserts:
//   - no 5xx;
//   - an X-Request-Id header, and on an API error the envelope (type, code, message, request_id);
//   - a bounded response (an error body under 2 KB, any body under 256 KB);
//   - nothing written: the two fuzzing merchants' rows in every tenant table are unchanged by a
//     route's requests (row count and a checksum of the rows, per table).
// What it sends, per route: malformed, foreign, other-mode and unknown path ids; no, wrong-kind
// and foreign-merchant credentials; invalid JSON, invalid UTF-8, non-object JSON, wrong content
// types, an oversized body; NUL, lone surrogates, deep nesting, huge strings, arrays and objects,
// non-finite numbers; each schema field with a wrong type; hostile query strings; then random
// combinations of these from fast-check (FUZZ_RUNS per route, FUZZ_SEED to reproduce).
// A failure names the route, the request (method, path, headers, body excerpt) and the answer.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type * as yup from 'yup';
import { testEnv, type TestEnv } from '../support/env';
import { newMerchant, type TestMerchant } from '../support/api';
import { createApp, type BillingApp } from '../../api/app';
import { createWorkflowClients } from '../../src/temporal/workflow-clients';
import { observeSchemas } from '../../api/validate';
import { AREAS } from '../../api/areas';
import { declarationsOf } from '../../api/route';
import { listen, type HttpHandle } from '../../boot/runtime/http';

const SEED = Number(process.env.FUZZ_SEED ?? 20261124);
const RUNS_PER_ROUTE = Number(process.env.FUZZ_RUNS ?? 6);
const ERROR_BODY_MAX = 2048;
const ANY_BODY_MAX = 256 * 1024;
// The API's own reference (GET /v1/openapi.json) is a fixed document whatever the request: its
// descriptions and recorded examples make it larger than any answer built from input may be.
const REFERENCE_PATH = '/v1/openapi.json';
const REFERENCE_BODY_MAX = 2 * 1024 * 1024;
const CONCURRENCY = 4;

interface Route {
  method: string;
  path: string;
  params: string[];
  body?: yup.AnyObjectSchema;
  query?: yup.AnyObjectSchema;
}

type AuthKind = 'key' | 'none' | 'publishable' | 'foreign-merchant' | 'lowercase-bearer' | 'garbage';
/** Where the path ids point: an object of the caller (only with input the layer refuses), or ids that name nothing of the caller's. */
type IdKind = 'own' | 'unknown' | 'foreign' | 'other-mode' | 'malformed';

interface FuzzRequest {
  label: string;
  method: string;
  path: string;
  auth: AuthKind;
  headers: Record<string, string>;
  body?: string | Buffer;
  /** True when the input layer refuses the request whatever the route: safe with the caller's own ids. */
  layerRefused: boolean;
}

interface Outcome {
  route: Route;
  req: FuzzRequest;
  status: number;
  text: string;
  headers: Headers;
}

const MALFORMED_IDS = ['%00', 'cus_%00x', 'x'.repeat(300), '%ZZ', 'caf%C3%A9', '%ED%A0%80', 'a%20b', '..%2F..%2Fetc', '%F0%9F%98%80'];
const NESTED_LEVELS = [40, 5_000];
// Placeholders for values too deep for JSON.stringify in this process: spliced in as text.
const DEEP_3000 = '\u0001deep-3000\u0001';
const DEEP_5000 = '\u0001deep-5000\u0001';
const withDeep = (text: string) => text.replace(JSON.stringify(DEEP_3000), () => nestedText(3_000)).replace(JSON.stringify(DEEP_5000), () => nestedText(5_000));

/** `levels` nested arrays around 1 as JSON text (no recursion, any depth). */
const nestedText = (levels: number) => '['.repeat(levels) + '1' + ']'.repeat(levels);
const nestedValue = (levels: number): unknown => {
  let v: unknown = 1;
  for (let i = 0; i < levels; i++) v = i % 2 ? { k: v } : [v];
  return v;
};

/** Fields of an object schema, flattened one level into nested objects: [path, description]. */
function fieldsOf(schema: yup.AnyObjectSchema | undefined): Array<[string[], any]> {
  if (!schema) return [];
  const out: Array<[string[], any]> = [];
  const walk = (desc: any, path: string[], depth: number) => {
    for (const [name, f] of Object.entries<any>(desc.fields ?? {})) {
      out.push([[...path, name], f]);
      if (f.type === 'object' && depth < 1) walk(f, [...path, name], depth + 1);
    }
  };
  walk(schema.describe(), [], 0);
  return out;
}

/** Values of the wrong JSON type for a described yup field (strict validation refuses each). */
function wrongTypes(desc: any): unknown[] {
  const integer = (desc.tests ?? []).some((t: any) => t.name === 'integer');
  switch (desc.type) {
    case 'string':
      return [12345, true, { x: 1 }, ['a']];
    case 'number':
      return integer ? ['12', 1.5, { n: 1 }, [1]] : ['12', true, { n: 1 }, [1]];
    case 'boolean':
      return ['true', 1, {}, [true]];
    case 'object':
      return ['x', 5, [1], true];
    case 'array':
      return ['x', 5, { a: 1 }, true];
    case 'date':
      return [true, { d: 1 }, [1]];
    default:
      // mixed (metadata, filters): the domain checks these; none of these is an object of strings.
      return [5, true, ['x'], 'plain'];
  }
}

const ID_FIELDS: Record<string, string> = {
  customer: 'customers',
  product: 'products',
  price: 'prices',
  payment: 'payments',
  meter: 'meters',
  test_clock: 'test_clocks',
  invoice_item: 'invoice_items',
};

/**
 * A body the schema would accept, as far as names and types tell (currency ISK, emails, URLs,
 * ISO times, ids of the caller's own objects). Best effort: it only has to get a poisoned value
 * past the other fields' checks, so that the poison, not a missing field, is what is refused.
 */
function plausible(desc: any, name: string, ids: Map<string, string>): unknown {
  if (desc.oneOf?.length) return desc.oneOf.find((v: unknown) => v !== null && v !== undefined);
  const min = (desc.tests ?? []).find((t: any) => t.name === 'min')?.params?.min;
  switch (desc.type) {
    case 'number':
      return typeof min === 'number' && min > 100 ? min : 100;
    case 'boolean':
      return false;
    case 'date':
      return new Date().toISOString();
    case 'array':
      return desc.innerType ? [plausible(desc.innerType, name.replace(/s$/, ''), ids)] : [];
    case 'object': {
      if (!desc.fields) return {};
      const out: Record<string, unknown> = {};
      for (const [k, f] of Object.entries<any>(desc.fields)) {
        const v = plausible(f, k, ids);
        if (v !== undefined) out[k] = v;
      }
      return out;
    }
    case 'string': {
      if (ID_FIELDS[name]) return ids.get(ID_FIELDS[name]!) ?? (desc.optional ? undefined : `${name.slice(0, 3)}_fuzzunknown`);
      if (/currency/.test(name)) return 'ISK';
      if (/email/.test(name)) return 'fuzz@example.is';
      if (/url$|_url/.test(name)) return 'https://example.com/fuzz';
      if (/country/.test(name)) return 'IS';
      if (/time|_at$|^from$|^to$|period_|timestamp|date/.test(name)) return new Date().toISOString();
      if (desc.optional) return undefined;
      return 'fuzz';
    }
    default:
      return name === 'metadata' ? {} : undefined;
  }
}

function setPath(target: Record<string, unknown>, path: string[], value: unknown): Record<string, unknown> {
  let o = target;
  for (const k of path.slice(0, -1)) {
    if (typeof o[k] !== 'object' || o[k] === null || Array.isArray(o[k])) o[k] = {};
    o = o[k] as Record<string, unknown>;
  }
  o[path[path.length - 1]!] = value;
  return target;
}

function excerptOf(value: string | Buffer | undefined, max = 160): string {
  if (value === undefined) return '(none)';
  const s = typeof value === 'string' ? value : `<${value.length} bytes: ${value.subarray(0, 40).toString('hex')}…>`;
  const shown = JSON.stringify(s.length > max ? s.slice(0, max) : s);
  return s.length > max ? `${shown}… (${s.length} chars)` : shown;
}

describe('route-wide fuzz: malformed requests on every registered route', function () {
  this.timeout(600_000);
  let env: TestEnv;
  let app: BillingApp;
  let http: HttpHandle;
  let base: string;
  let m: TestMerchant & { liveSecretKey?: string };
  let other: TestMerchant;
  /** Only for discovering schemas: its objects may be changed by that, it is not checked. */
  let disc: TestMerchant;
  const logged: string[] = [];
  let tables: string[] = [];

  before(async () => {
    env = await testEnv();
    // Our own instance of the application on the suite's database, so the routes come from the
    // very router that serves the requests.
    app = createApp({
      db: env.db,
      config: { ...env.config, rateLimitRequests: 1_000_000_000 },
      temporal: env.temporal,
      workflows: createWorkflowClients(env.temporal),
      gateways: env.gateways,
      log: (l) => void logged.push(l),
    });
    http = await listen(app, 0, '127.0.0.1');
    base = `http://127.0.0.1:${http.port}`;
    m = await newMerchant(env, { live: true });
    other = await newMerchant(env);
    disc = await newMerchant(env);
    const rows = await env.db.$queryRawUnsafe<Array<{ table_name: string }>>(
      `SELECT DISTINCT table_name::text AS table_name FROM information_schema.columns
       WHERE table_schema = current_schema() AND column_name = 'merchant_id' AND table_name <> 'idempotency_keys'
       ORDER BY table_name`,
    );
    tables = rows.map((r) => r.table_name);
  });

  after(async () => {
    observeSchemas(undefined);
    await http?.close(1000);
    await app?.shutdown();
  });

  /** Row count and checksum of the fuzzing merchants' rows, per tenant table (and their merchant rows). */
  async function snapshot(): Promise<Map<string, string>> {
    const parts = tables.map(
      (t) => `SELECT '${t}' AS t, count(*)::text || ':' || coalesce(md5(string_agg(md5(x::text), '' ORDER BY md5(x::text))), '') AS h FROM "${t}" x WHERE merchant_id IN ($1, $2)`,
    );
    parts.push(
      `SELECT 'merchants' AS t, count(*)::text || ':' || coalesce(md5(string_agg(md5(x::text), '' ORDER BY md5(x::text))), '') AS h FROM merchants x WHERE id IN ($1, $2)`,
    );
    const rows = await env.db.$queryRawUnsafe<Array<{ t: string; h: string }>>(parts.join(' UNION ALL '), m.id, other.id);
    return new Map(rows.map((r) => [r.t, r.h]));
  }
  const changedTables = (a: Map<string, string>, b: Map<string, string>) => [...a.keys()].filter((k) => a.get(k) !== b.get(k));

  it('answers every malformed request below 500, in the envelope, small, and writes nothing', async () => {
    // --- The routes, from the application's own router.
    const routes: Route[] = [];
    for (const layer of app.router.stack) {
      if (typeof layer.path !== 'string') continue;
      for (const method of layer.methods) {
        if (method === 'HEAD') continue;
        routes.push({ method, path: layer.path, params: layer.paramNames.map((p) => String(p.name)) });
      }
    }
    assert.ok(routes.length > 60, `only ${routes.length} routes found in the router`);

    // --- Objects to point ids at: the caller's own, another merchant's, the caller's other mode.
    const ownIds = new Map<string, string>();
    const foreignIds = new Map<string, string>();
    const discIds = new Map<string, string>();
    let otherModeId = '';
    const makeFixtures = async (t: TestMerchant, into: Map<string, string>, withKey = true) => {
      const made = async (segment: string, path: string, body: Record<string, unknown>) => {
        const res = await t.call('POST', path, { body });
        if (res.status < 300 && typeof res.body?.id === 'string') into.set(segment, res.body.id);
        return res.body?.id as string | undefined;
      };
      const customer = await made('customers', '/v1/customers', { email: `fuzz-${Date.now()}@example.is`, name: 'Fuzz' });
      const product = await made('products', '/v1/products', { name: 'Fuzz product' });
      await made('prices', '/v1/prices', { product, type: 'one_time', currency: 'ISK', unit_amount: 1000 });
      await made('meters', '/v1/meters', { name: 'Fuzz meter', event_name: `fuzz_${Date.now()}`, aggregate_type: 'count' });
      await made('test_clocks', '/v1/test_helpers/test_clocks', { frozen_time: new Date().toISOString(), name: 'fuzz' });
      await made('payments', '/v1/payments', { amount: 1000, currency: 'ISK', ...(customer ? { customer } : {}) });
      await made('invoice_items', '/v1/invoice_items', { customer, amount: 500, currency: 'ISK', description: 'fuzz' });
      if (!withKey) return;
      const keys = await t.call('GET', '/v1/api_keys');
      if (keys.body?.data?.[0]?.id) into.set('api_keys', keys.body.data[0].id);
    };
    await makeFixtures(m, ownIds);
    await makeFixtures(other, foreignIds);
    // The discovery merchant's keys are never pointed at (a discovery request may rotate or revoke what it names).
    await makeFixtures(disc, discIds, false);
    const live = await fetch(`${base}/v1/customers`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${m.liveSecretKey}`, 'X-Merchant-Id': m.id, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Live twin', email: 'live-twin@example.is' }),
    });
    const liveText = await live.text();
    otherModeId = (JSON.parse(liveText) as { id?: string }).id ?? '';
    assert.ok(otherModeId, `live customer: ${live.status} ${liveText.slice(0, 300)}`);
    assert.ok(ownIds.size >= 5 && foreignIds.size >= 5 && otherModeId, `fixtures: own ${[...ownIds.keys()]}, foreign ${[...foreignIds.keys()]}`);
    const anyForeign = foreignIds.get('customers')!;
    /** The id of the route's resource (path segment after /v1/, or after /v1/test_helpers/). */
    const segmentOf = (path: string) => {
      const parts = path.split('/').filter(Boolean);
      return parts[1] === 'test_helpers' ? (parts[2] ?? '') : (parts[1] ?? '');
    };

    // --- Each route's schemas, seen as the route validates: requests of the discovery merchant
    // on its own objects (so a route that looks its object up first still gets to its schema),
    // aborted at the body schema by the observer. A route without a body schema may act on the
    // discovery merchant's object; that merchant is not among the checked ones.
    class Discovered extends Error {}
    let seen: { body?: yup.AnyObjectSchema; query?: yup.AnyObjectSchema } = {};
    observeSchemas((kind, schema) => {
      if (kind === 'query') {
        seen.query ??= schema;
        return;
      }
      seen.body ??= schema;
      throw new Discovered('schema observed');
    });
    for (const route of routes) {
      const candidates = route.params.length ? ([discIds.get(segmentOf(route.path)), `${segmentOf(route.path).slice(0, 3)}_fuzzunknown`].filter(Boolean) as string[]) : [''];
      for (const id of candidates) {
        seen = {};
        const path = route.params.reduce((p, name) => p.replace(`:${name}`, encodeURIComponent(id)), route.path);
        await fetch(`${base}${path}`, {
          method: route.method,
          headers: { Authorization: `Bearer ${disc.secretKey}`, 'X-Merchant-Id': disc.id, 'Content-Type': 'application/json' },
          body: ['GET', 'OPTIONS'].includes(route.method) ? undefined : '{}',
        }).then((r) => r.arrayBuffer());
        route.body ??= seen.body;
        route.query ??= seen.query;
        if (route.body || (route.method === 'GET' && route.query)) break;
      }
    }
    observeSchemas(undefined);
    const withSchemas = routes.filter((r) => r.body || r.query).length;
    // The OpenAPI descriptors name the very schema objects the routes validate with (docs/openapi.md).
    const described = new Map(declarationsOf(AREAS).map((d) => [`${d.method.toUpperCase()} ${d.path}`, d]));
    for (const route of routes) {
      const d = described.get(`${route.method} ${route.path}`);
      if (route.body) assert.ok(d?.body === route.body, `${route.method} ${route.path}: its OpenAPI descriptor does not name the body schema the route validates with`);
      if (route.query) assert.ok(d?.query === route.query, `${route.method} ${route.path}: its OpenAPI descriptor does not name the query schema the route validates with`);
    }

    // Let the fixtures' after-effects (events, workflows) settle before counting writes.
    let before = await snapshot();
    for (let i = 0; i < 40; i++) {
      await new Promise((r) => setTimeout(r, 250));
      const again = await snapshot();
      if (changedTables(before, again).length === 0) break;
      before = again;
    }

    // --- Requests.
    const headersFor = (auth: AuthKind): Record<string, string> => {
      switch (auth) {
        case 'key':
          return { Authorization: `Bearer ${m.secretKey}`, 'X-Merchant-Id': m.id };
        case 'lowercase-bearer':
          return { Authorization: `bearer ${m.secretKey}`, 'X-Merchant-Id': m.id };
        case 'publishable':
          return { Authorization: `Bearer ${m.publishableKey}`, 'X-Merchant-Id': m.id };
        case 'foreign-merchant':
          return { Authorization: `Bearer ${m.secretKey}`, 'X-Merchant-Id': other.id };
        case 'garbage':
          return { Authorization: 'Bearer sk_test_\u00ff\u0000'.replace(/[^\x20-\x7e]/g, '?'), 'X-Merchant-Id': '%00' };
        case 'none':
          return {};
      }
    };
    const pathWith = (route: Route, kind: IdKind, malformed = MALFORMED_IDS[0]!) => {
      const id =
        kind === 'own'
          ? (ownIds.get(segmentOf(route.path)) ?? `${segmentOf(route.path).slice(0, 3)}_fuzzunknown`)
          : kind === 'foreign'
            ? (foreignIds.get(segmentOf(route.path)) ?? anyForeign)
            : kind === 'other-mode'
              ? otherModeId
              : kind === 'unknown'
                ? `${segmentOf(route.path).slice(0, 3)}_fuzzunknown`
                : malformed;
      return route.params.reduce((p, name) => p.replace(`:${name}`, kind === 'malformed' ? id : encodeURIComponent(id)), route.path);
    };
    const hasBody = (route: Route) => !['GET', 'OPTIONS'].includes(route.method);
    const json = (v: unknown) => JSON.stringify(v);

    /** The fixed requests for a route. */
    function fixed(route: Route): FuzzRequest[] {
      const out: FuzzRequest[] = [];
      const add = (label: string, path: string, o: Partial<FuzzRequest> & { contentType?: string | null } = {}) => {
        const auth = o.auth ?? 'key';
        const headers = { ...headersFor(auth), ...(o.headers ?? {}) };
        const ct = o.contentType === undefined ? (o.body !== undefined ? 'application/json' : null) : o.contentType;
        if (ct) headers['Content-Type'] = ct;
        out.push({ label, method: route.method, path, auth, headers, body: o.body, layerRefused: o.layerRefused ?? false });
      };
      const safeIds: IdKind[] = route.params.length ? ['unknown'] : ['own'];
      // Ids that name nothing of the caller's, and credentials that are not the caller's.
      if (route.params.length) {
        for (const bad of MALFORMED_IDS) add(`malformed id ${bad.slice(0, 20)}`, pathWith(route, 'malformed', bad), hasBody(route) ? { body: '{}' } : {});
        for (const kind of ['foreign', 'other-mode', 'unknown'] as const) add(`${kind} id`, pathWith(route, kind), hasBody(route) ? { body: '{}' } : {});
      }
      for (const auth of ['none', 'publishable', 'foreign-merchant', 'garbage'] as const) {
        add(`auth ${auth}`, pathWith(route, route.params.length ? 'own' : 'own'), { auth, ...(hasBody(route) ? { body: '{}' } : {}) });
      }
      // Hostile query strings (every route reads ctx.query through the input layer).
      const own = pathWith(route, safeIds[0]!);
      add('NUL in starting_after', `${own}?starting_after=%00&limit=abc`, { layerRefused: true });
      add('huge query value', `${own}?customer=${'q'.repeat(3_000)}`, { layerRefused: true });
      // Query strings the input layer lets through reach the route: only where nothing can be written
      // (reads, or a path id that names nothing of the caller's).
      const readOnly = route.method === 'GET' || route.params.length > 0;
      if (readOnly) add('repeated and odd query params', `${pathWith(route, 'unknown')}?limit=1&limit=2&starting_after=nope&starting_after=x&customer=${anyForeign}&expand[]=a`);
      for (const [path] of readOnly ? fieldsOf(route.query) : []) {
        if (path.length !== 1) continue;
        add(`query ${path[0]} foreign id`, `${pathWith(route, 'unknown')}?${path[0]}=${encodeURIComponent(anyForeign)}`);
        add(`query ${path[0]} garbage`, `${pathWith(route, 'unknown')}?${path[0]}=%FF%FE%00&${path[0]}=2`, { layerRefused: true });
      }
      if (!hasBody(route)) return out;
      // Bodies the JSON layer refuses.
      const target = pathWith(route, safeIds[0]!);
      add('invalid JSON', target, { body: '{"name": ', layerRefused: true });
      add('non-object JSON', target, { body: '[1,2,3]', layerRefused: true });
      add('JSON string', target, { body: '"just a string"', layerRefused: true });
      add('invalid UTF-8', target, { body: Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0xff, 0x22, 0x7d]), layerRefused: true });
      add('text/plain body', target, { body: '{"a":1}', contentType: 'text/plain', layerRefused: true });
      add('form body', target, { body: 'a=1&b=2', contentType: 'application/x-www-form-urlencoded', layerRefused: true });
      add('oversized body', target, { body: `{"a":"${'x'.repeat(1_100_000)}"}`, layerRefused: true });
      for (const levels of NESTED_LEVELS) add(`nested ${levels} levels`, target, { body: `{"metadata":${nestedText(levels)},"name":${nestedText(levels)}}`, layerRefused: true });
      add('NUL and lone surrogates', target, { body: json({ name: 'a\u0000b', metadata: { k: '\ud800' }, description: '\udfff' }), layerRefused: true });
      add('lone surrogate key', target, { body: json({ metadata: { '\ud83d': 'v' } }), layerRefused: true });
      add('huge string', target, { body: json({ name: 'n'.repeat(20_000), description: 'd'.repeat(20_000) }), layerRefused: true });
      add('huge array', target, { body: json({ items: new Array(1_500).fill({ price: 'price_x' }), events: new Array(1_500).fill(0) }), layerRefused: true });
      add('huge object', target, { body: json({ metadata: Object.fromEntries(Array.from({ length: 1_500 }, (_, i) => [`k${i}`, 'v'])) }), layerRefused: true });
      add('non-finite number', target, { body: '{"amount":1e400,"quantity":-1e999}', layerRefused: true });
      // A body the schema would accept but for one poisoned value: the poison, not a missing field,
      // is what must be refused (by the input layer, before anything is written), even on the
      // caller's own objects.
      if (route.body) {
        const base = plausible(route.body.describe(), '', ownIds) as Record<string, unknown>;
        const own = pathWith(route, 'own');
        const strings = fieldsOf(route.body)
          .filter(([p, d]) => p.length === 1 && d.type === 'string')
          .map(([p]) => p[0]!);
        const poisons: Array<[string, Record<string, unknown>]> = [
          ['metadata value with a lone surrogate', { metadata: { k: '\ud800' } }],
          ['metadata key with a lone surrogate', { metadata: { '\udc00': 'v' } }],
          ['metadata value with NUL', { metadata: { k: 'a\u0000b' } }],
          ['metadata nested 3,000 levels', { metadata: { k: DEEP_3000 } }],
          ...strings.slice(0, 4).map((f, i): [string, Record<string, unknown>] => [`${f} with ${i % 2 ? 'a lone surrogate' : 'NUL'}`, { [f]: i % 2 ? 'x\udfffy' : 'x\u0000y' }]),
          ...strings.slice(0, 2).map((f): [string, Record<string, unknown>] => [`${f} of 200,000 characters`, { [f]: 's'.repeat(200_000) }]),
          ...strings.slice(0, 2).map((f): [string, Record<string, unknown>] => [`${f} nested 5,000 levels`, { [f]: DEEP_5000 }]),
        ];
        for (const [label, poison] of poisons) add(`near-valid body, ${label}`, own, { body: withDeep(json({ ...base, ...poison })), layerRefused: true });
        // The same body with its object references pointing at another merchant's objects, at the
        // caller's other mode, or at nothing: refused (404) before anything is written.
        const refs = fieldsOf(route.body)
          .filter(([p]) => p.length === 1 && ID_FIELDS[p[0]!])
          .map(([p]) => p[0]!);
        if (refs.length) {
          const target = pathWith(route, route.params.length ? 'unknown' : 'own');
          const pointing = (id: (f: string) => string) => json({ ...base, ...Object.fromEntries(refs.map((f) => [f, id(f)])) });
          add('near-valid body, foreign ids', target, { body: pointing((f) => foreignIds.get(ID_FIELDS[f]!) ?? anyForeign) });
          add('near-valid body, other-mode ids', target, { body: pointing(() => otherModeId) });
          add('near-valid body, unknown ids', target, { body: pointing((f) => `${f.slice(0, 3)}_fuzzunknown`) });
        }
      }
      // Each schema field with the wrong type, on ids that name nothing of the caller's (or, for
      // routes without a path id, as the only field: the schema refuses it before any write).
      fieldsOf(route.body).forEach(([path, desc], i) => {
        const wrong = wrongTypes(desc);
        const value = wrong[i % wrong.length];
        add(`field ${path.join('.')} as ${Array.isArray(value) ? 'array' : typeof value}`, pathWith(route, route.params.length ? 'unknown' : 'own'), {
          body: json(setPath({}, path, value)),
        });
      });
      return out;
    }

    // --- Random requests: fast-check combines hostile values into bodies, queries and ids.
    const unit = fc.oneof(
      { weight: 6, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
      { weight: 1, arbitrary: fc.constantFrom('\u0000', '\ud800', '\udfff', '\u202e', '"', '\\', '\n', '😀') },
    );
    const hostileString = fc.oneof(fc.string({ unit, maxLength: 40 }), fc.constantFrom('x'.repeat(10_001), '\u0000', 'a\ud800b', ''));
    const leaf = fc.oneof(hostileString, fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.constant(1e308));
    const shallow = fc.oneof(leaf, fc.array(leaf, { maxLength: 4 }), fc.dictionary(hostileString, leaf, { maxKeys: 4 }));
    const deep = fc.integer({ min: 33, max: 600 }).map((n) => nestedValue(n));
    const big = fc.oneof(
      fc.integer({ min: 1_001, max: 1_300 }).map((n) => new Array(n).fill('a')),
      fc.constant('y'.repeat(12_000)),
    );
    const value = fc.oneof({ weight: 8, arbitrary: shallow }, { weight: 1, arbitrary: deep }, { weight: 1, arbitrary: big });
    /** A malformation that guarantees a refusal whatever else the body holds. */
    const poison = fc.constantFrom<[string, unknown]>(
      ['nul', 'a\u0000'],
      ['surrogate', '\udc00x'],
      ['deep', nestedValue(60)],
      ['long', 'z'.repeat(10_500)],
      ['wide', new Array(1_200).fill(1)],
    );

    function randomFor(route: Route): FuzzRequest[] {
      const names = fieldsOf(route.body).map(([p]) => p);
      const fieldName = names.length
        ? fc.oneof(
            fc.constantFrom(...names),
            hostileString.map((s) => [s]),
          )
        : hostileString.map((s) => [s]);
      const arb = fc.record({
        fields: fc.array(fc.tuple(fieldName, value), { maxLength: 5 }),
        poison: fc.tuple(fieldName, poison),
        id: fc.constantFrom<IdKind>('unknown', 'foreign', 'other-mode', 'malformed'),
        malformed: fc.constantFrom(...MALFORMED_IDS),
        auth: fc.constantFrom<AuthKind>('key', 'key', 'key', 'lowercase-bearer', 'none', 'publishable'),
        query: fc.array(fc.tuple(fc.constantFrom('limit', 'starting_after', 'customer', ...fieldsOf(route.query).map(([p]) => p[0]!)), hostileString), { maxLength: 3 }),
        rawText: fc.option(
          fc.constantFrom('{', '{"a":1,}', '\u0000', 'nul', '{"a":"\\ud800"}', '{"a":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}'),
          { freq: 8 },
        ),
      });
      return fc.sample(arb, { numRuns: RUNS_PER_ROUTE, seed: SEED + routes.indexOf(route) }).map((r, i) => {
        const body: Record<string, unknown> = {};
        for (const [path, v] of r.fields) setPath(body, path, v);
        setPath(body, r.poison[0], r.poison[1][1]);
        const query = r.query.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v.replace(/[\ud800-\udfff]/g, '?'))}`).join('&');
        const path = (route.params.length ? pathWith(route, r.id, r.malformed) : pathWith(route, 'own')) + (query ? `?${query}` : '');
        const headers = headersFor(r.auth);
        let text: string | undefined;
        if (hasBody(route)) {
          text = r.rawText ?? JSON.stringify(body);
          headers['Content-Type'] = 'application/json';
        }
        // Without a path id, only the poison guarantees a refusal: it is in the body (or the body is not JSON).
        return {
          label: `random #${i} (seed ${SEED + routes.indexOf(route)}, poison ${r.poison[1][0]} at ${excerptOf(r.poison[0].join('.'), 30)})`,
          method: route.method,
          path,
          auth: r.auth,
          headers,
          body: text,
          layerRefused: hasBody(route),
        };
      });
    }

    // --- Send, check, and count.
    const failures: string[] = [];
    let requests = 0;
    let largest = { bytes: 0, what: '' };
    let largestError = { bytes: 0, what: '' };
    const statuses = new Map<number, number>();
    const describeReq = (route: Route, req: FuzzRequest) =>
      `${route.method} ${route.path} — ${req.label}: ${req.method} ${excerptOf(req.path, 120)} auth=${req.auth} content-type=${req.headers['Content-Type'] ?? '(none)'} body=${excerptOf(req.body)}`;

    async function send(route: Route, req: FuzzRequest): Promise<Outcome> {
      requests++;
      for (let attempt = 1; ; attempt++) {
        try {
          const res = await fetch(`${base}${req.path}`, {
            method: req.method,
            headers: req.headers,
            body: req.body as unknown as string | undefined,
            signal: AbortSignal.timeout(30_000),
          });
          const text = await res.text();
          return { route, req, status: res.status, text, headers: res.headers };
        } catch (err) {
          const e = err as Error & { cause?: Error & { code?: string } };
          // A pooled keep-alive connection the server closed as it was reused: send once more.
          if (attempt === 1 && /ECONNRESET|UND_ERR_SOCKET|EPIPE/.test(`${e.cause?.code} ${e.cause?.message}`)) continue;
          // No answer at all (connection reset twice, timeout): reported like a 5xx.
          return { route, req, status: 0, text: `no response: ${e.message}${e.cause ? ` (${e.cause.message})` : ''}`, headers: new Headers() };
        }
      }
    }

    function check(o: Outcome): void {
      const where = describeReq(o.route, o.req);
      statuses.set(o.status, (statuses.get(o.status) ?? 0) + 1);
      const bytes = Buffer.byteLength(o.text);
      if (bytes > largest.bytes) largest = { bytes, what: `${o.status} ${o.route.method} ${o.route.path} (${o.req.label})` };
      if (o.status >= 500 || o.status === 0) {
        const log = logged.filter((l) => l.includes('unhandled') || l.includes('failed')).slice(-1)[0] ?? '';
        failures.push(`${where}\n    → ${o.status} ${o.text.slice(0, 300)}\n    server log: ${log.slice(0, 600)}`);
        return;
      }
      const requestId = o.headers.get('x-request-id');
      if (!requestId) failures.push(`${where}\n    → ${o.status} without an X-Request-Id header`);
      const isJson = (o.headers.get('content-type') ?? '').includes('application/json');
      const isApi = o.route.path.startsWith('/v1/') || o.route.path.startsWith('/checkout/api/');
      if (o.status >= 400 && (isJson || isApi)) {
        if (bytes > largestError.bytes) largestError = { bytes, what: `${o.status} ${o.route.method} ${o.route.path} (${o.req.label})` };
        let err: any;
        try {
          err = JSON.parse(o.text)?.error;
        } catch {
          err = undefined;
        }
        if (!err || typeof err.type !== 'string' || typeof err.code !== 'string' || typeof err.message !== 'string' || err.request_id !== requestId) {
          failures.push(`${where}\n    → ${o.status} without the error envelope (or request_id ≠ X-Request-Id): ${o.text.slice(0, 200)}`);
        }
        if (bytes > ERROR_BODY_MAX) failures.push(`${where}\n    → ${o.status} error body of ${bytes} bytes (limit ${ERROR_BODY_MAX})`);
      }
      const bodyMax = o.route.path === REFERENCE_PATH && o.status === 200 ? REFERENCE_BODY_MAX : ANY_BODY_MAX;
      if (bytes > bodyMax) failures.push(`${where}\n    → ${o.status} body of ${bytes} bytes (limit ${bodyMax})`);
    }

    const started = Date.now();
    let snap = before;
    for (const route of routes) {
      const reqs = [...fixed(route), ...randomFor(route)];
      for (let i = 0; i < reqs.length; i += CONCURRENCY) {
        const batch = await Promise.all(reqs.slice(i, i + CONCURRENCY).map((r) => send(route, r)));
        batch.forEach(check);
      }
      const after = await snapshot();
      const changed = changedTables(snap, after);
      if (changed.length) {
        // Find the request that wrote: replay them one by one (the writes are already done, so
        // only a request that writes again shows up; the route and tables are named regardless).
        let culprit = '';
        let s = after;
        for (const r of reqs) {
          await send(route, r).then(check);
          const t = await snapshot();
          if (changedTables(s, t).length) {
            culprit = describeReq(route, r);
            break;
          }
          s = t;
        }
        failures.push(`${route.method} ${route.path}: its malformed requests changed ${changed.join(', ')}${culprit ? `; e.g. ${culprit}` : ''}`);
        snap = await snapshot();
      } else {
        snap = after;
      }
    }
    const seconds = (Date.now() - started) / 1000;

    // Nothing large was stored for replay either (requests above sent no Idempotency-Key; this
    // checks what any earlier request of the fuzzing merchant stored).
    const stored = await env.db.$queryRawUnsafe<Array<{ n: number; max: number | null }>>(
      `SELECT count(*)::int AS n, max(octet_length(response_body::text))::int AS max FROM idempotency_keys WHERE merchant_id IN ($1, $2) AND response_status >= 400`,
      m.id,
      other.id,
    );
    assert.ok((stored[0]?.max ?? 0) <= ERROR_BODY_MAX, `a stored error response of ${stored[0]?.max} bytes`);

    const summary =
      `fuzz: ${requests} requests on ${routes.length} routes (${withSchemas} with observed schemas), ${seconds.toFixed(1)} s, seed ${SEED}, ` +
      `5xx: ${[...statuses].filter(([s]) => s >= 500).reduce((a, [, n]) => a + n, 0)}, largest response ${largest.bytes} B (${largest.what}), ` +
      `largest error ${largestError.bytes} B (${largestError.what}), statuses ${JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])))}`;
    console.log(`      ${summary}`);
    assert.ok(requests > routes.length * 10, summary);
    assert.equal(failures.length, 0, `${failures.length} failures (${summary}):\n  ${failures.slice(0, 40).join('\n  ')}`);
  });
});
