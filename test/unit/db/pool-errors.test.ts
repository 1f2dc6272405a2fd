// Which failures mean "no database connection in time" (answered 503 with Retry-After, retried
// by activities): the shapes below are the ones Prisma 7 over pg actually raises (checked against
// an exhausted pool: test/api/load/pool-and-back-pressure.test.ts drives them end to end).
import assert from 'node:assert/strict';
import { isConnectionUnavailable } from '../../../src/db/pool-errors';

describe('isConnectionUnavailable', () => {
  const prismaError = (code: string, message: string, extra: Record<string, unknown> = {}) => Object.assign(new Error(message), { code, ...extra });

  it('knows an interactive transaction that could not start within maxWait (P2028)', () => {
    assert.equal(isConnectionUnavailable(prismaError('P2028', 'Transaction API error: Unable to start a transaction in the given time.')), true);
  });

  it("knows pg-pool's connection timeout, also as the cause of a wrapped error", () => {
    assert.equal(isConnectionUnavailable(new Error('timeout exceeded when trying to connect')), true);
    assert.equal(isConnectionUnavailable(new Error('query failed', { cause: new Error('timeout exceeded when trying to connect') })), true);
    // A raw query whose adapter error carries the server's code.
    assert.equal(isConnectionUnavailable(prismaError('P2010', 'Raw query failed.', { meta: { driverAdapterError: { cause: { originalCode: '53300' } } } })), true);
    assert.equal(isConnectionUnavailable(prismaError('P2010', 'Raw query failed.', { meta: { driverAdapterError: { cause: { originalCode: '23505' } } } })), false);
  });

  it('knows a server that refuses new connections (53300, 57P03)', () => {
    assert.equal(isConnectionUnavailable(new Error('sorry, too many clients already')), true);
    assert.equal(isConnectionUnavailable(Object.assign(new Error('remaining connection slots are reserved for roles with the SUPERUSER attribute'), { code: '53300' })), true);
    assert.equal(isConnectionUnavailable(Object.assign(new Error('the database system is starting up'), { code: '57P03' })), true);
  });

  it('leaves every other failure alone (they keep their own answers)', () => {
    assert.equal(isConnectionUnavailable(prismaError('P2028', 'Transaction API error: Transaction already closed: A query cannot be executed on a committed transaction.')), false);
    assert.equal(isConnectionUnavailable(prismaError('P2002', 'Unique constraint failed on the fields: (`id`)')), false);
    assert.equal(isConnectionUnavailable(new Error('canceling statement due to lock timeout')), false);
    assert.equal(isConnectionUnavailable(undefined), false);
    assert.equal(isConnectionUnavailable('timeout'), false);
  });
});
