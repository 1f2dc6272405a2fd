// The one RequestScope builder (src/domain/request-scope.ts) used by the API, the portal and the
// dashboard: the key formats each surface had before, and after-commit work queued, not run.
import assert from 'node:assert/strict';
import { requestKey, requestScope } from '../../src/domain/request-scope';
import type { TenantDb } from '../../src/db/tenancy';

describe('request scope', () => {
  it('names a request by its key, the next attempt after failed ones, or by its id without a key', () => {
    assert.equal(requestKey({ prefix: 'idem', key: 'k1', requestId: 'r1' }), 'idem:k1');
    assert.equal(requestKey({ prefix: 'idem', key: 'k1', failedAttempts: 0, requestId: 'r1' }), 'idem:k1');
    assert.equal(requestKey({ prefix: 'idem', key: 'k1', failedAttempts: 2, requestId: 'r1' }), 'idem#3:k1');
    assert.equal(requestKey({ prefix: 'portal', key: 'ps_1:k', failedAttempts: 1, requestId: 'r1' }), 'portal#2:ps_1:k');
    assert.equal(requestKey({ prefix: 'idem', key: null, failedAttempts: 4, requestId: 'r1' }), 'req:r1');
    assert.equal(requestKey({ prefix: 'dashboard', key: 'nonce1234567890abcd', requestId: 'r1' }), 'dashboard:nonce1234567890abcd');
  });

  it('queues after-commit work for the caller to run, and passes updateFailed through', async () => {
    const queue: Array<() => Promise<void>> = [];
    let failed = false;
    let ran = 0;
    const db = {} as TenantDb;
    const scope = requestScope({
      tenant: { merchantId: 'm_1', mode: 'test' },
      db,
      key: { prefix: 'idem', key: 'k', requestId: 'r' },
      afterCommit: queue,
      updateFailed: () => void (failed = true),
    });
    scope.afterCommit(async () => void ran++);
    assert.equal(ran, 0, 'not run before the caller commits');
    assert.equal(queue.length, 1);
    await queue[0]!();
    assert.equal(ran, 1);
    scope.updateFailed?.();
    assert.ok(failed);
    assert.deepEqual([scope.requestKey, scope.db === db, scope.tenant.merchantId], ['idem:k', true, 'm_1']);
    assert.equal(requestScope({ tenant: { merchantId: 'm', mode: 'live' }, db, key: { prefix: 'dashboard', key: 'x', requestId: 'r' }, afterCommit: [] }).updateFailed, undefined);
  });
});
