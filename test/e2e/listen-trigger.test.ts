// `billing listen` and `billing trigger` against the README's own receiver snippet, run unchanged
// in a child process (docs/webhooks.md "Receiving events on localhost"): listen forwards the test
// merchant's events, signed with its session secret, to the snippet on localhost; trigger causes
// real events (a declining test card makes invoice.payment_failed) through the API.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { testEnv, type TestEnv } from '../support/env';
import { call, newMerchant } from '../support/api';
import { listen } from '../../boot/developer/listen';
import { trigger } from '../../boot/developer/trigger';
import { apiCaller } from '../../boot/developer/api-client';

const root = path.resolve(__dirname, '..', '..', '..');

/** The README's receiver: the ```js block of the "Webhooks" section that verifies signatures. */
export function readmeReceiverSnippet(): string {
  const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
  const blocks = [...readme.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]!);
  const snippet = blocks.find((b) => b.includes('createHmac') && b.includes('service-signature'));
  assert.ok(snippet, 'README.md has the receiver snippet');
  return snippet;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

interface RunningReceiver {
  port: number;
  output: string[];
  child: ChildProcess;
}

async function startSnippet(secret: string): Promise<RunningReceiver> {
  const port = await freePort();
  const child = spawn(process.execPath, ['-e', readmeReceiverSnippet()], {
    env: { ...process.env, WEBHOOK_SECRET: secret, WEBHOOK_PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout!.on('data', (d: Buffer) => output.push(...d.toString('utf8').split('\n').filter(Boolean)));
  child.stderr!.on('data', (d: Buffer) => output.push(`stderr: ${d.toString('utf8')}`));
  // Up when it answers (a GET without a signature is refused with 400, which is an answer).
  for (;;) {
    const up = await fetch(`http://127.0.0.1:${port}/webhooks`, { method: 'POST', body: '{}' }).then(
      (r) => r.status,
      () => 0,
    );
    if (up === 400) break;
    assert.equal(child.exitCode, null, `the snippet exited: ${output.join('\n')}`);
    await new Promise((res) => setTimeout(res, 100));
  }
  return { port, output, child };
}

async function until(what: string, check: () => boolean): Promise<void> {
  while (!check()) await new Promise((res) => setTimeout(res, 200));
  assert.ok(check(), what);
}

describe('billing listen and billing trigger with the README receiver', function () {
  this.timeout(120_000);
  let env: TestEnv;
  const children: ChildProcess[] = [];
  const stops: AbortController[] = [];

  before(async () => {
    env = await testEnv();
  });
  after(() => {
    for (const s of stops) s.abort();
    for (const c of children) c.kill();
  });

  async function startListen(m: { id: string; secretKey: string }, forwardTo: (secret: string) => Promise<string>, events: string[] | null = null) {
    const lines: string[] = [];
    const stop = new AbortController();
    stops.push(stop);
    const target = { baseUrl: env.baseUrl, key: m.secretKey, merchantId: m.id };
    // The session secret is printed first; the receiver is configured with it, as a developer would.
    const secret = 'whsec_' + Buffer.alloc(32, 7).toString('base64url');
    const url = await forwardTo(secret);
    const done = listen({ target, forwardTo: url, events, secret, write: (l) => lines.push(l), signal: stop.signal, waitSeconds: 2 });
    await until('listen is ready', () => lines.some((l) => l.startsWith('Ready!')));
    return { lines, stop, done, secret };
  }

  it('forwards triggered events, signed with the session secret, to the unchanged README snippet', async () => {
    const m = await newMerchant(env);
    let receiver!: RunningReceiver;
    const session = await startListen(m, async (secret) => {
      receiver = await startSnippet(secret);
      children.push(receiver.child);
      return `http://localhost:${receiver.port}/webhooks`;
    });
    assert.ok(
      session.lines.some((l) => l.includes(session.secret)),
      'the session secret is printed',
    );

    const call = apiCaller({ baseUrl: env.baseUrl, key: m.secretKey, merchantId: m.id });
    const said: string[] = [];
    await trigger(call, 'invoice.payment_failed', (l) => said.push(l));
    await trigger(call, 'invoice.paid', (l) => said.push(l));
    assert.ok(said.some((l) => /declines every charge/.test(l)));

    await until('the snippet received invoice.payment_failed and invoice.paid', () =>
      ['invoice.payment_failed', 'invoice.paid'].every((t) => receiver.output.some((l) => l.startsWith(`received ${t} for inv_`))),
    );
    await until('listen printed the answers', () => session.lines.filter((l) => l.includes('<-- [200]')).length >= 2);
    // One line per event, with the local answer; only 200s (the snippet verified every signature).
    const eventLines = session.lines.filter((l) => l.includes('-->'));
    assert.ok(eventLines.length >= 4, eventLines.join('\n'));
    assert.ok(
      eventLines.every((l) => /--> [a-z_.]+ \[evt_\w+\] {2}<-- \[200\] POST http:\/\/localhost:\d+\/webhooks/.test(l)),
      eventLines.join('\n'),
    );
    assert.ok(eventLines.some((l) => l.includes('--> invoice.payment_failed')));
    assert.ok(eventLines.some((l) => l.includes('--> customer.created')));
    // Each event once, in the order recorded.
    const ids = eventLines.map((l) => /\[(evt_\w+)\]/.exec(l)![1]);
    assert.equal(new Set(ids).size, ids.length);
    session.stop.abort();
    assert.equal(await session.done, eventLines.length);
  });

  it('a receiver holding another secret refuses every forwarded event (the signature is real); --events filters', async () => {
    const m = await newMerchant(env);
    let receiver!: RunningReceiver;
    const session = await startListen(m, async () => {
      receiver = await startSnippet('whsec_' + Buffer.alloc(32, 9).toString('base64url'));
      children.push(receiver.child);
      return `http://127.0.0.1:${receiver.port}/hooks`;
    }, ['customer.created']);
    const call = apiCaller({ baseUrl: env.baseUrl, key: m.secretKey, merchantId: m.id });
    await trigger(call, 'customer.updated', () => undefined);
    await until('listen forwarded customer.created', () => session.lines.some((l) => l.includes('--> customer.created')));
    const eventLines = session.lines.filter((l) => l.includes('-->'));
    assert.ok(
      eventLines.every((l) => l.includes('--> customer.created') && l.includes('<-- [400]')),
      eventLines.join('\n'),
    );
    assert.equal(receiver.output.length, 0, 'the snippet accepted nothing');
    session.stop.abort();
    await session.done;
  });

  it('the feed is test mode only, checks its parameters, and trigger refuses what it cannot cause', async () => {
    const m = await newMerchant(env, { live: true });
    const live = await call(env, 'GET', '/v1/test_helpers/event_feed?wait=0', { key: m.liveSecretKey, merchant: m.id });
    assert.equal(live.status, 403);
    assert.equal(live.body.error.code, 'test_mode_only');
    const badType = await m.call('GET', '/v1/test_helpers/event_feed?wait=0&types=invoice.pad');
    assert.equal(badType.status, 400);
    assert.equal(badType.body.error.param, 'types');
    const badCursor = await m.call('GET', '/v1/test_helpers/event_feed?wait=0&cursor=nonsense');
    assert.equal(badCursor.status, 400);
    assert.equal(badCursor.body.error.param, 'cursor');
    const badWait = await m.call('GET', '/v1/test_helpers/event_feed?wait=31');
    assert.equal(badWait.status, 400);
    const ok = await m.call('GET', '/v1/test_helpers/event_feed?wait=0');
    assert.equal(ok.status, 200);
    assert.deepEqual(ok.body.data, []);
    await assert.rejects(
      trigger(apiCaller({ baseUrl: env.baseUrl, key: m.secretKey, merchantId: m.id }), 'accounting_link.error', () => undefined),
      /cannot cause accounting_link.error/,
    );
  });

  it('bin/billing.js trigger runs the same through the CLI', async () => {
    const m = await newMerchant(env);
    const child = spawn(process.execPath, [path.join(root, 'bin', 'billing.js'), 'trigger', 'customer.created', '--api-url', env.baseUrl], {
      env: { ...process.env, BILLING_API_KEY: m.secretKey },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (out += d.toString('utf8')));
    const code = await new Promise<number | null>((res) => child.on('exit', res));
    assert.equal(code, 0, out);
    assert.match(out, new RegExp(`Triggering customer.created in test mode for ${m.id}`));
    const customers = await m.call('GET', '/v1/customers');
    assert.equal(customers.body.data.length, 1);
    assert.equal(customers.body.data[0].metadata.created_by, 'billing trigger');
  });
});
