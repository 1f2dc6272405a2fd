// Start-up names the real cause when PostgreSQL cannot be used (boot/runtime/database.ts): a refused
// connection, a refused login, and a missing database that cannot be created are each reported
// as such, not as "PostgreSQL does not answer".
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { prepareDatabase } from '../../boot/runtime/database';
import { freePort } from '../support/processes';

const base = () => new URL(process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres');
const failure = (url: string) =>
  prepareDatabase(url, () => undefined).then(
    () => assert.fail('prepareDatabase succeeded'),
    (err: Error) => err.message,
  );

describe('PostgreSQL connection failures at start-up', () => {
  it('a refused connection says so and names the address', async () => {
    const port = await freePort();
    const msg = await failure(`postgresql://postgres@127.0.0.1:${port}/billing`);
    assert.match(msg, new RegExp(`refused the connection at 127\\.0\\.0\\.1:${port} \\(connection refused`));
    assert.doesNotMatch(msg, /does not answer/);
  });

  it('a refused login names the user and the server reason, not an unreachable server', async () => {
    const url = base();
    url.username = `no_such_role_${randomBytes(4).toString('hex')}`;
    url.pathname = '/billing_nope';
    const msg = await failure(url.toString());
    assert.match(msg, new RegExp(`refused the login of "${url.username}": role "${url.username}" does not exist`));
    assert.doesNotMatch(msg, /does not answer/);
  });

  describe('a missing database', () => {
    const role = `billing_nocreate_${randomBytes(4).toString('hex')}`;
    const admin = new Client({ connectionString: base().toString() });
    before(async () => {
      await admin.connect();
      await admin.query(`CREATE ROLE ${role} LOGIN NOCREATEDB`);
    });
    after(async () => {
      await admin.query(`DROP ROLE IF EXISTS ${role}`);
      await admin.end();
    });

    it('that the user may not create is reported as missing, with why creating it failed', async () => {
      const url = base();
      url.username = role;
      url.pathname = `/billing_missing_${randomBytes(3).toString('hex')}`;
      const msg = await failure(url.toString());
      assert.match(msg, new RegExp(`has no database "${url.pathname.slice(1)}"`));
      assert.match(msg, /Creating it failed: the user may not create databases \(permission denied to create database\)/);
    });
  });
});
