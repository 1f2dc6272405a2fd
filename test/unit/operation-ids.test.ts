// Every route declares its operationId (api/route.ts): unique, and named verb then noun in
// camelCase (`createCustomer`, `listInvoices`, `cancelSubscription`), as the typed client and the
// reference page show them (docs/openapi.md).
import assert from 'node:assert/strict';
import { AREAS } from '../../api/areas';
import { declarationsOf } from '../../api/route';

/** The verbs an operationId may start with. */
const VERBS = [
  'create',
  'list',
  'retrieve',
  'update',
  'replace',
  'delete',
  'cancel',
  'uncancel',
  'pause',
  'resume',
  'pay',
  'void',
  'confirm',
  'rotate',
  'revoke',
  'retry',
  'advance',
  'attach',
  'detach',
  'archive',
  'set',
  'enable',
  'connect',
  'complete',
  'disconnect',
  'resync',
  'export',
  'open',
  'remove',
  'preflight',
  'sign',
];
const OPERATION_ID = new RegExp(`^(${VERBS.join('|')})[A-Z][A-Za-z0-9]*$`);

describe('operation ids', () => {
  const declarations = declarationsOf(AREAS);

  it('are unique', () => {
    const seen = new Map<string, string>();
    for (const d of declarations) {
      const route = `${d.method.toUpperCase()} ${d.path}`;
      assert.ok(!seen.has(d.operationId), `${route} and ${seen.get(d.operationId)} share operationId ${d.operationId}`);
      seen.set(d.operationId, route);
    }
    assert.equal(seen.size, declarations.length);
  });

  it('are verb then noun, camelCase', () => {
    const bad = declarations.filter((d) => !OPERATION_ID.test(d.operationId)).map((d) => `${d.method.toUpperCase()} ${d.path}: ${d.operationId}`);
    assert.deepEqual(bad, []);
  });

  it('the naming check refuses what it should (planted)', () => {
    for (const id of ['getCustomersById', 'postCustomers', 'customerCreate', 'create', 'create_customer', 'createcustomer']) assert.ok(!OPERATION_ID.test(id), id);
    for (const id of ['createCustomer', 'listInvoices', 'retrieveCustomer', 'cancelSubscription']) assert.ok(OPERATION_ID.test(id), id);
  });
});
