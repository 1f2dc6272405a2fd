// Every error code a route declares (`errors: [...]`, the document's `x-error-codes` and error
// responses) is one the operation can answer: either a recorded example of the operation
// (docs/openapi-examples.json) answered it, or the route's own code can construct it. "Can
// construct" is read statically from the compiled JavaScript: starting at the route's `use` and
// `handler` (and its area's setup), every function they name is followed, in their own module or
// through the modules they require, and every `errors.<factory>` or code string met on the way
// counts. The reading cannot follow calls through injected dependencies (workflow clients,
// gateways in `deps`); those few are listed below with the path that answers them, and the list
// may only shrink (an entry the reading now resolves, or no longer declares, fails the test).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { AREAS, DASHBOARD_ONLY_ROUTES } from '../../api/areas';
import type { Area, RouteDeclaration } from '../../api/route';
import { openApiPath } from '../../api/openapi/describe';
import { recordedExamples } from '../../api/openapi/document';
import { errors } from '../../src/errors';

/** The compiled tree (dist/): this file runs as dist/test/unit/openapi-declared-errors.test.js. */
const DIST = path.resolve(__dirname, '..', '..');
const ERRORS_MODULE = path.join(DIST, 'src', 'errors.js');
const CODE_OF = new Map<string, string>(Object.entries(errors).map(([factory, f]) => [factory, f.code]));
const CODES = new Set(CODE_OF.values());
/** What every route's `use` receives besides its area's kit: `auth` is api/middleware/auth.ts's authenticator. */
const KIT: Record<string, [module: string, name: string]> = { auth: [path.join(DIST, 'api', 'middleware', 'auth.js'), 'authenticator'] };

/**
 * Declared codes answered through what the static reading cannot follow: `operation code` → how.
 * Checked both ways: each entry must still be declared and still be unresolved by the reading.
 */
const ANSWERED_THROUGH_INJECTION: Record<string, string> = {
  // Subscription commands are applied by the subscription's workflow and its activity; a refusal
  // crosses Temporal as a code (src/contracts/refusal.ts) and is thrown again on this side.
  // test/api/subscriptions/subscription-items.test.ts answers both item cases.
  'POST /v1/subscription_items invalid_subscription': 'runSubscriptionCommand(deps, …): the workflow client in deps',
  'DELETE /v1/subscription_items/{id} invalid_subscription': 'runSubscriptionCommand(deps, …): the workflow client in deps',
  'POST /v1/subscription_items/{id} invalid_subscription': 'runSubscriptionCommand(deps, …): the workflow client in deps',
  'POST /v1/subscriptions/{id} invalid_subscription': 'sendSubscriptionCommand(deps, …): the workflow client in deps',
  // Not verified by this reading: the charge runs in the workflow or through deps' card acquirer.
  'POST /v1/invoices/{id}/pay card_declined': 'payInvoiceNow(deps, …): the workflow client or the card acquirer in deps',
};

interface CompiledModule {
  /** `const x_1 = require("./x")` → the required file. */
  requires: Map<string, string>;
  /** Top-level declarations, `exports.name = …` and re-exports by name → their text. */
  declarations: Map<string, string>;
  /** `export * from './x'`: the files whose exports this module passes on. */
  stars: string[];
}

const modules = new Map<string, CompiledModule>();
function compiled(file: string): CompiledModule {
  let m = modules.get(file);
  if (m) return m;
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true, ts.ScriptKind.JS);
  m = { requires: new Map(), declarations: new Map(), stars: [] };
  const local = (spec: string) => require.resolve(path.resolve(path.dirname(file), spec));
  for (const st of source.statements) {
    if ((ts.isFunctionDeclaration(st) || ts.isClassDeclaration(st)) && st.name) m.declarations.set(st.name.text, st.getText());
    else if (ts.isVariableStatement(st)) {
      for (const d of st.declarationList.declarations) {
        const init = d.initializer?.getText() ?? '';
        const required = /require\("(\.[^"]+)"\)/.exec(init);
        if (required && ts.isIdentifier(d.name)) m.requires.set(d.name.text, local(required[1]!));
        else if (ts.isIdentifier(d.name)) m.declarations.set(d.name.text, d.getText());
        else if (ts.isObjectBindingPattern(d.name)) for (const e of d.name.elements) if (ts.isIdentifier(e.name)) m.declarations.set(e.name.text, d.getText());
      }
    } else if (ts.isExpressionStatement(st)) {
      const text = st.getText();
      const assigned = /^exports\.(\w+) = /.exec(text);
      // `export { x } from './y'`: Object.defineProperty(exports, "x", { get: function () { return y_1.x; } }).
      const reexported = /^Object\.defineProperty\(exports, "(\w+)", \{ enumerable: true, get/.exec(text);
      const star = /^__exportStar\(require\("(\.[^"]+)"\), exports\)/.exec(text);
      if (assigned && !m.declarations.has(assigned[1]!) && ts.isBinaryExpression(st.expression)) m.declarations.set(assigned[1]!, st.expression.right.getText());
      else if (reexported) m.declarations.set(reexported[1]!, text);
      else if (star) m.stars.push(local(star[1]!));
    }
  }
  modules.set(file, m);
  return m;
}

/** The error codes the given function texts (of `file`) can construct, following what they name. */
export function constructibleCodes(texts: string[], file: string): Set<string> {
  const codes = new Set<string>();
  const seen = new Set<string>();
  const stack: Array<[text: string, file: string]> = texts.map((t) => [t, file]);
  const follow = (target: string, name: string): void => {
    const key = `${target}#${name}`;
    if (seen.has(key)) return;
    const m = compiled(target);
    const text = m.declarations.get(name);
    if (text === undefined) return m.stars.forEach((star) => follow(star, name));
    seen.add(key);
    stack.push([text, target]);
  };
  while (stack.length > 0) {
    const [text, at] = stack.pop()!;
    const m = compiled(at);
    for (const [, factory] of text.matchAll(/\berrors\.(\w+)/g)) if (CODE_OF.has(factory!)) codes.add(CODE_OF.get(factory!)!);
    for (const [, literal] of text.matchAll(/'([a-z_]+)'/g)) if (CODES.has(literal!)) codes.add(literal!);
    for (const [, alias, name] of text.matchAll(/\b(\w+_\d+)\.(\w+)/g)) {
      const target = m.requires.get(alias!);
      // The error catalog names every code: only the factories called count, not the catalog.
      if (target !== undefined && target !== ERRORS_MODULE && target.startsWith(DIST)) follow(target, name!);
    }
    for (const [, name] of text.matchAll(/\b([A-Za-z_$][\w$]*)\b/g)) {
      if (m.declarations.has(name!)) follow(at, name!);
      else if (Object.hasOwn(KIT, name!)) follow(...KIT[name!]!);
    }
  }
  return codes;
}

/** The compiled module that declares each area (read from api/areas.js's requires). */
function areaModules(): Map<Area, string> {
  const found = new Map<Area, string>();
  for (const file of compiled(path.join(DIST, 'api', 'areas.js')).requires.values()) {
    for (const value of Object.values(require(file) as Record<string, unknown>)) if (AREAS.includes(value as Area)) found.set(value as Area, file);
  }
  return found;
}

/**
 * The compiled text of the object literal that declares `d` in its area's module (found by its
 * `operationId`, else by its `path`), or '' when it is built in a way the reading does not find
 * (a table of routes with computed ids: those pass `use` and `handler` as their own functions).
 */
function declarationText(file: string, d: RouteDeclaration): string {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true, ts.ScriptKind.JS);
  const keyed = (key: string, value: string | undefined) => (node: ts.ObjectLiteralExpression) =>
    value !== undefined && node.properties.some((p) => ts.isPropertyAssignment(p) && p.name.getText() === key && ts.isStringLiteral(p.initializer) && p.initializer.text === value);
  const literals: ts.ObjectLiteralExpression[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isObjectLiteralExpression(node)) literals.push(node);
    ts.forEachChild(node, visit);
  };
  visit(source);
  const found = literals.find(keyed('operationId', d.operationId)) ?? literals.find(keyed('path', d.path));
  // Its properties but `errors`: the declared list itself is what is checked, not a way to answer.
  return (found?.properties ?? [])
    .filter((p) => !(ts.isPropertyAssignment(p) && p.name.getText() === 'errors'))
    .map((p) => p.getText())
    .join('\n');
}

const operation = (d: RouteDeclaration) => `${d.method.toUpperCase()} ${openApiPath(d.path)}`;

/** `operation code` for each declared code that no recorded example answered and the route's code cannot construct. */
function unproducedDeclarations(areas: readonly Area[], files: Map<Area, string>): string[] {
  const examples = recordedExamples();
  const out: string[] = [];
  for (const area of areas) {
    const file = files.get(area);
    assert.ok(file, `the module of area ${area.name}`);
    for (const d of area.routes) {
      if (!d.errors?.length) continue;
      const answered = new Set(Object.values(examples[operation(d)]?.errors ?? {}).map((e) => (e as { error: { code: string } }).error.code));
      // A route served outside the router is its module's middleware: the whole module is read.
      // The declaration's own text is read too: a shared helper (`...secretKey(testModeOnly, 'tx')`,
      // `portalAction({ run })`) captures what it is given, which the helper's closure text does not name.
      const texts = d.outsideRouter ? [readFileSync(file, 'utf8')] : [area.setup.toString(), d.use?.toString() ?? '', d.handler.toString(), declarationText(file, d)];
      const codes = constructibleCodes(texts, file);
      for (const code of d.errors) if (!answered.has(code) && !codes.has(code)) out.push(`${operation(d)} ${code}`);
    }
  }
  return out;
}

describe('declared error codes are answered', () => {
  const files = areaModules();

  it('reads every area', () => {
    assert.equal(files.size, AREAS.length);
  });

  it('every declared code is recorded in an example or constructible by the route (or listed with how it is answered)', () => {
    assert.deepEqual(unproducedDeclarations(AREAS, files).sort(), Object.keys(ANSWERED_THROUGH_INJECTION).sort());
  });

  it('POST /v1/customer_portals and DELETE /v1/api_keys/{id} declare no code they cannot answer', () => {
    const declared = (op: string) => AREAS.flatMap((a) => a.routes).find((d) => operation(d) === op)?.errors ?? [];
    assert.ok(!declared('POST /v1/customer_portals').includes('url_not_allowed'));
    assert.ok(!declared('DELETE /v1/api_keys/{id}').includes('invalid_state'));
  });

  it('catches a planted code the handler cannot answer, and finds one it can', () => {
    const portals = AREAS.find((a) => a.routes.some((d) => operation(d) === 'POST /v1/customer_portals'))!;
    const planted: Area = { ...portals, routes: portals.routes.map((d) => (operation(d) === 'POST /v1/customer_portals' ? { ...d, errors: ['url_not_allowed'] } : d)) };
    assert.deepEqual(unproducedDeclarations([planted], new Map([[planted, files.get(portals)!]])), ['POST /v1/customer_portals url_not_allowed']);
    const endpoints = AREAS.find((a) => a.routes.some((d) => operation(d) === 'POST /v1/webhook_endpoints'))!;
    const create = endpoints.routes.find((d) => operation(d) === 'POST /v1/webhook_endpoints')!;
    assert.ok(!create.outsideRouter);
    assert.ok(
      constructibleCodes([create.handler.toString()], files.get(endpoints)!).has('url_not_allowed'),
      'url_not_allowed is reached through src/domain/webhooks/endpoint-url.ts',
    );
  });

  it('DASHBOARD_ONLY_ROUTES is read from the declarations: every route for a dashboard session, each refusing API keys', () => {
    assert.ok(DASHBOARD_ONLY_ROUTES.length > 0);
    for (const [method, p] of DASHBOARD_ONLY_ROUTES) {
      const d = AREAS.flatMap((a) => a.routes).find((r) => r.method === method && r.path === p);
      assert.equal(d?.auth, 'dashboard', `${method} ${p}`);
      assert.ok(d.errors?.includes('wrong_auth_method'), `${method} ${p} declares wrong_auth_method`);
    }
  });
});
