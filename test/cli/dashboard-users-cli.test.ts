// `billing users create|list`: the first dashboard user comes from the operator CLI, and signs in.
import assert from 'node:assert/strict';
import { testEnv, type TestEnv } from '../support/env';
import { billing } from '../support/cli';
import { newMerchant } from '../support/api';
import { signInHttp } from '../support/dashboard';

describe('billing users (dashboard users CLI)', function () {
  this.timeout(60_000);
  let env: TestEnv;
  before(async () => {
    env = await testEnv();
  });

  it('creates an owner with a generated password (shown once) who can sign in; refuses bad input', async () => {
    const m = await newMerchant(env);
    const email = `Owner-${Date.now()}@Example.is`;
    const res = await billing(env, ['users', 'create', '--merchant', m.id, '--email', email, '--role', 'owner', '--json']);
    assert.equal(res.code, 0, res.stderr);
    const out = JSON.parse(res.stdout);
    assert.equal(out.email, email.toLowerCase());
    assert.equal(out.role, 'owner');
    assert.ok(out.password.length >= 16);
    const stored = await env.db.dashboardUser.findUniqueOrThrow({ where: { email: email.toLowerCase() } });
    assert.match(stored.passwordHash, /^scrypt\$32768\$8\$1\$/);
    assert.equal(stored.passwordHash.includes(out.password), false);
    const session = await signInHttp(env, email, out.password);
    assert.ok(session.csrf);

    const dup = await billing(env, ['users', 'create', '--merchant', m.id, '--email', email, '--role', 'finance']);
    assert.equal(dup.code, 1);
    assert.match(dup.stderr, /already exists/);
    const badRole = await billing(env, ['users', 'create', '--merchant', m.id, '--email', 'x@example.is', '--role', 'admin']);
    assert.equal(badRole.code, 1);
    assert.match(badRole.stderr, /role must be one of/);
    const short = await billing(env, ['users', 'create', '--merchant', m.id, '--email', 'y@example.is', '--role', 'finance', '--password-stdin'], 'short\n');
    assert.equal(short.code, 1);
    assert.match(short.stderr, /at least 10 characters/);
    const fromStdin = await billing(
      env,
      ['users', 'create', '--merchant', m.id, '--email', 'z-stdin@example.is', '--role', 'finance', '--password-stdin', '--json'],
      'a long enough passphrase\n',
    );
    assert.equal(fromStdin.code, 0, fromStdin.stderr);
    assert.equal(JSON.parse(fromStdin.stdout).password, undefined);
    await signInHttp(env, 'z-stdin@example.is', 'a long enough passphrase');

    const list = await billing(env, ['users', 'list', '--merchant', m.id, '--json']);
    assert.deepEqual(
      JSON.parse(list.stdout)
        .map((u: { role: string }) => u.role)
        .sort(),
      ['finance', 'owner'],
    );
  });
});
