// The `billing` operator CLI, run as a real process (bin/billing.js) against the test database.
import assert from 'node:assert/strict';
import { testEnv, type TestEnv } from '../support/env';
import { billing } from '../support/cli';
import { call, expectError } from '../support/api';

describe('billing CLI', function () {
  this.timeout(60_000);
  let env: TestEnv;
  before(async () => {
    env = await testEnv();
  });

  it('creates a merchant with working secret and publishable test keys (--json)', async () => {
    const res = await billing(env, ['merchants', 'create', '--name', 'Kaffi ehf.', '--currency', 'EUR', '--json']);
    assert.equal(res.code, 0, res.stderr);
    const out = JSON.parse(res.stdout);
    assert.match(out.merchant_id, /^merch_/);
    assert.equal(out.default_currency, 'EUR');
    assert.match(out.secret_key, /^sk_test_/);
    assert.match(out.publishable_key, /^pk_test_/);
    const me = await call(env, 'GET', '/v1/merchants/current', { key: out.secret_key });
    assert.equal(me.status, 200);
    assert.equal(me.body.name, 'Kaffi ehf.');
    expectError(await call(env, 'GET', '/v1/api_keys', { key: out.publishable_key, merchant: out.merchant_id }), 403, 'secret_key_required');
  });

  it('go-live enables live keys; keys create/list/revoke work and revocation is immediate', async () => {
    const created = JSON.parse((await billing(env, ['merchants', 'create', '--name', 'Live ehf.', '--json'])).stdout);
    const early = await billing(env, ['keys', 'create', '--merchant', created.merchant_id, '--type', 'secret', '--mode', 'live']);
    assert.equal(early.code, 1);
    assert.match(early.stderr, /has not gone live/);
    assert.equal((await billing(env, ['merchants', 'go-live', created.merchant_id])).code, 0);
    const key = await billing(env, ['keys', 'create', '--merchant', created.merchant_id, '--type', 'secret', '--mode', 'live', '--json']);
    assert.equal(key.code, 0, key.stderr);
    const live = JSON.parse(key.stdout).key as string;
    assert.match(live, /^sk_live_/);
    assert.equal((await call(env, 'GET', '/v1/api_keys', { key: live, merchant: created.merchant_id })).status, 200);
    const list = JSON.parse((await billing(env, ['keys', 'list', '--merchant', created.merchant_id, '--json'])).stdout) as Array<{ id: string; mode: string; last4: string }>;
    const liveRow = list.find((k) => k.mode === 'live')!;
    assert.equal(liveRow.last4, live.slice(-4));
    assert.equal((await billing(env, ['keys', 'revoke', '--merchant', created.merchant_id, liveRow.id])).code, 0);
    expectError(await call(env, 'GET', '/v1/api_keys', { key: live, merchant: created.merchant_id }), 401, 'unauthorized');
  });

  it('manages allowed origins and redirect domains, refusing malformed values', async () => {
    const created = JSON.parse((await billing(env, ['merchants', 'create', '--name', 'Origins ehf.', '--json'])).stdout);
    const add = await billing(env, ['origins', 'add', '--merchant', created.merchant_id, 'https://shop.example.is/', '--json']);
    assert.equal(add.code, 0, add.stderr);
    assert.deepEqual(JSON.parse(add.stdout), ['https://shop.example.is']);
    const bad = await billing(env, ['origins', 'add', '--merchant', created.merchant_id, 'https://shop.example.is/path']);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /not an origin/);
    const dom = await billing(env, ['redirect-domains', 'add', '--merchant', created.merchant_id, 'Shop.Example.IS', '--json']);
    assert.deepEqual(JSON.parse(dom.stdout), ['shop.example.is']);
    const row = await env.db.merchant.findUnique({ where: { id: created.merchant_id } });
    assert.deepEqual(row!.allowedOrigins, ['https://shop.example.is']);
    assert.deepEqual(row!.redirectDomains, ['shop.example.is']);
  });

  it('gives usage errors with exit code 2 and clear messages for bad input', async () => {
    const noName = await billing(env, ['merchants', 'create']);
    assert.equal(noName.code, 2);
    assert.match(noName.stderr, /--name is required/);
    const badCurrency = await billing(env, ['merchants', 'create', '--name', 'X', '--currency', 'XYZ']);
    assert.equal(badCurrency.code, 1);
    assert.match(badCurrency.stderr, /unsupported currency XYZ/);
    const unknown = await billing(env, ['frobnicate']);
    assert.equal(unknown.code, 2);
    const missingMerchant = await billing(env, ['keys', 'list', '--merchant', 'merch_nope']);
    assert.equal(missingMerchant.code, 1);
    assert.match(missingMerchant.stderr, /no such merchant/);
  });

  it('parses first: usage errors, --help and --version never open the database', async () => {
    // Nothing listens here: a command that opened the database would fail with exit code 1.
    const nowhere = { databaseUrl: 'postgresql://postgres@127.0.0.1:1/none' };
    const unknown = await billing(nowhere, ['frobnicate', 'everything']);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /unknown command: frobnicate everything/);
    assert.match(unknown.stderr, /usage:/);
    assert.doesNotMatch(unknown.stderr, /PostgreSQL/);
    const unknownOption = await billing(nowhere, ['merchants', 'list', '--frobnicate']);
    assert.equal(unknownOption.code, 2);
    assert.match(unknownOption.stderr, /--frobnicate/);
    assert.match(unknownOption.stderr, /usage:/);
    const missingValue = await billing(nowhere, ['keys', 'create', '--merchant']);
    assert.equal(missingValue.code, 2);
    const version = await billing(nowhere, ['--version']);
    assert.equal(version.code, 0);
    assert.match(version.stdout, /^billing \d+\.\d+\.\d+\n$/);
    const help = await billing(nowhere, ['keys', 'create', '--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /billing keys create --merchant MERCHANT_ID --type secret\|publishable/);
    assert.doesNotMatch(help.stdout, /users create/, 'the help of one command');
    const all = await billing(nowhere, ['--help']);
    assert.equal(all.code, 0);
    assert.match(all.stdout, /billing users create/);
    assert.match(all.stdout, /billing --version/);
    // A known command does open the database, and says why it could not.
    const known = await billing(nowhere, ['merchants', 'list']);
    assert.equal(known.code, 1);
  });

  it('a usage error of a known command shows that command', async () => {
    const noMerchant = await billing(env, ['keys', 'create', '--type', 'secret', '--mode', 'test']);
    assert.equal(noMerchant.code, 2);
    assert.match(noMerchant.stderr, /--merchant MERCHANT_ID is required\nusage:\n {2}billing keys create/);
  });
});
