// The typed client package (clients/typescript, its README): `npm pack` builds it (prepack runs
// tsc), the tarball installs into an empty project, a strict TypeScript consumer type-checks against
// the packed types and then runs against the test server: it creates a customer, survives a 503
// (with Retry-After) by retrying with the same Idempotency-Key (the server executed the first
// attempt, so the retry must replay it, not create a second customer), and verifies webhook
// signatures made by the service's own signer, with either secret of a rotation and with neither.
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { envAndMerchants, type TestEnv } from '../support/env';
import { newMerchant, type TestMerchant } from '../support/api';
import { REPO_ROOT } from '../support/processes';
import { generateEndpointSecret, signatureHeaderValue } from '../../src/webhooks/signature';

const PACKAGE_DIR = path.join(REPO_ROOT, 'clients', 'typescript');
const TSC = path.join(REPO_ROOT, 'node_modules', '.bin', 'tsc');

/** The consumer: what an integrator writes after `npm install @billing-service/client`. */
const CONSUMER = `
import { readFileSync } from 'node:fs';
import { createBillingClient, verifyWebhookSignature, parseWebhookEvent, WebhookSignatureError, type ApiErrorBody } from '@billing-service/client';

async function main(): Promise<void> {
  const input = JSON.parse(readFileSync(process.argv[2]!, 'utf8'));
  const client = createBillingClient({ baseUrl: input.baseUrl, apiKey: input.apiKey, merchantId: input.merchantId, retry: { maxRetries: 2, maxDelayMs: 2000 } });
  const created = await client.POST('/v1/customers', { body: { email: input.email, name: 'Pakki ehf.', metadata: { source: 'client-package' } } });
  if (!created.data) throw new Error('create failed: ' + JSON.stringify(created.error));
  const id: string = created.data.id;
  const read = await client.GET('/v1/customers/{id}', { params: { path: { id } } });
  const missing = await client.GET('/v1/customers/{id}', { params: { path: { id: 'cus_missing' } } });
  const envelope: ApiErrorBody | undefined = missing.error;
  const w = input.webhook;
  const verify = (secrets: string[]) => verifyWebhookSignature({ payload: w.body, timestamp: w.timestamp, signature: w.signature, secrets, nowSeconds: w.now });
  let threw = false;
  try {
    parseWebhookEvent({ payload: w.body, timestamp: w.timestamp, signature: w.signature, secrets: ['whsec_wrong'], nowSeconds: w.now });
  } catch (err) {
    threw = err instanceof WebhookSignatureError;
  }
  const event = parseWebhookEvent<{ id: string }>({ payload: Buffer.from(w.body), timestamp: w.timestamp, signature: w.signature, secrets: w.oldSecret, nowSeconds: w.now });
  process.stdout.write(JSON.stringify({
    created: { status: created.response.status, id, replayed: created.response.headers.get('Idempotent-Replayed') },
    read: read.data?.email,
    missing: { status: missing.response.status, code: envelope?.error.code },
    webhook: {
      newOnly: verify([w.newSecret]),
      oldOnly: verify([w.oldSecret]),
      neither: verify(['whsec_neither']),
      stale: verifyWebhookSignature({ payload: w.body, timestamp: w.timestamp, signature: w.signature, secrets: [w.newSecret], nowSeconds: w.now + 301 }),
      tampered: verify([w.newSecret, w.oldSecret]) && !verifyWebhookSignature({ payload: w.body + ' ', timestamp: w.timestamp, signature: w.signature, secrets: [w.newSecret, w.oldSecret], nowSeconds: w.now }),
      parseThrew: threw,
      eventId: event.data.id,
    },
  }));
}
main().catch((err) => { console.error(err); process.exit(1); });
`;

describe('typed client package (clients/typescript): npm pack, install, call the test server', function () {
  this.timeout(240_000);
  let env: TestEnv, m: TestMerchant;
  let work: string;
  before(async () => {
    [env, m] = await envAndMerchants(newMerchant);
    work = mkdtempSync(path.join(os.tmpdir(), 'billing-client-'));
  });
  after(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('builds and packs, installs from the tarball, type-checks a strict consumer, creates a customer and retries a 503 with the same key', async () => {
    // npm pack runs the package's prepack (tsc): the tarball holds the built code and the types.
    rmSync(path.join(PACKAGE_DIR, 'dist'), { recursive: true, force: true });
    const packed = execFileSync('npm', ['pack', '--json', '--pack-destination', work], { cwd: PACKAGE_DIR, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    const info = JSON.parse(packed.slice(packed.indexOf('['))) as Array<{ filename: string; files: Array<{ path: string }> }>;
    const files = info[0]!.files.map((f) => f.path).sort();
    for (const f of ['README.md', 'dist/index.d.ts', 'dist/index.js', 'dist/webhooks.js', 'package.json', 'schema.d.ts'])
      assert.ok(files.includes(f), `${f} missing from the tarball: ${files.join(', ')}`);
    assert.equal(
      files.some((f) => f.startsWith('src/')),
      false,
      'sources stay out of the tarball',
    );
    const tarball = path.join(
      work,
      readdirSync(work).find((f) => f.endsWith('.tgz'))!,
    );

    const project = path.join(work, 'consumer');
    execFileSync('mkdir', ['-p', project]);
    writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true }));
    execFileSync('npm', ['install', tarball, '--prefer-offline', '--no-audit', '--no-fund', '--loglevel', 'error'], { cwd: project, stdio: ['ignore', 'pipe', 'pipe'] });
    writeFileSync(path.join(project, 'consumer.ts'), CONSUMER);
    // Strict type-check against the packed declarations (Node's types from the repository).
    execFileSync(
      TSC,
      [
        '--strict',
        '--noEmitOnError',
        '--target',
        'ES2022',
        '--module',
        'commonjs',
        '--moduleResolution',
        'node',
        '--esModuleInterop',
        '--skipLibCheck',
        '--typeRoots',
        path.join(REPO_ROOT, 'node_modules', '@types'),
        '--types',
        'node',
        'consumer.ts',
      ],
      { cwd: project, stdio: ['ignore', 'pipe', 'pipe'] },
    );

    // A proxy in front of the test server: the first create is executed by the server, but the
    // client is told 503 with Retry-After: 1, as when an answer is lost to an overload.
    const seen: Array<{ method: string; path: string; key: string | undefined; status: number }> = [];
    let failedOnce = false;
    const proxy = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        void (async () => {
          const headers = new Headers();
          for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && k !== 'host' && k !== 'connection') headers.set(k, v);
          const upstream = await fetch(`${env.baseUrl}${req.url}`, { method: req.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined });
          const text = await upstream.text();
          const key = req.headers['idempotency-key'] as string | undefined;
          if (req.method === 'POST' && req.url === '/v1/customers' && !failedOnce) {
            failedOnce = true;
            seen.push({ method: req.method, path: req.url, key, status: 503 });
            res
              .writeHead(503, { 'Content-Type': 'application/json', 'Retry-After': '1' })
              .end('{"error":{"type":"api_error","code":"service_unavailable","message":"busy","doc_url":"/docs/errors#service_unavailable","request_id":"req_proxy"}}');
            return;
          }
          seen.push({ method: req.method ?? '', path: req.url ?? '', key, status: upstream.status });
          const out: Record<string, string> = {};
          upstream.headers.forEach((v, k) => {
            if (k !== 'content-length' && k !== 'transfer-encoding' && k !== 'connection' && k !== 'content-encoding') out[k] = v;
          });
          res.writeHead(upstream.status, out).end(text);
        })().catch((err: unknown) => res.writeHead(502).end(String(err)));
      });
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const oldSecret = generateEndpointSecret();
      const newSecret = generateEndpointSecret();
      const now = Math.floor(Date.now() / 1000);
      const body = JSON.stringify({ id: 'evt_pkg', type: 'customer.created', created_at: new Date().toISOString(), data: { id: 'cus_pkg', object: 'customer' } });
      const email = `package-${Date.now()}@example.is`;
      writeFileSync(
        path.join(project, 'input.json'),
        JSON.stringify({
          baseUrl: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
          apiKey: m.secretKey,
          merchantId: m.id,
          email,
          // Signed by the service's own signer as during a rotation: newest secret first.
          webhook: { body, timestamp: String(now), signature: signatureHeaderValue([newSecret, oldSecret], now, body), now, oldSecret, newSecret },
        }),
      );
      const started = Date.now();
      // Asynchronously: the proxy and the test server answer from this process's event loop.
      const run = await promisify(execFile)(process.execPath, ['consumer.js', 'input.json'], { cwd: project, encoding: 'utf8', timeout: 60_000 });
      const out = JSON.parse(run.stdout);
      const elapsed = Date.now() - started;

      const creates = seen.filter((s) => s.method === 'POST' && s.path === '/v1/customers');
      assert.equal(creates.length, 2, JSON.stringify(seen));
      assert.deepEqual(
        creates.map((c) => c.status),
        [503, 201],
      );
      assert.ok(creates[0]!.key && creates[0]!.key.length >= 16, 'the client set an Idempotency-Key');
      assert.equal(creates[1]!.key, creates[0]!.key, 'the retry carries the same key');
      assert.ok(elapsed >= 1000, `the retry waited for Retry-After (${elapsed} ms)`);
      assert.equal(
        seen.filter((s) => s.method === 'GET').every((s) => s.key === undefined),
        true,
        'reads carry no key',
      );
      assert.equal(out.created.status, 201);
      assert.equal(out.created.replayed, 'true', 'the retry was answered from the first execution');
      assert.equal(out.read, email);
      assert.deepEqual(out.missing, { status: 404, code: 'resource_missing' });
      const list = await m.call('GET', '/v1/customers?limit=100');
      assert.equal(list.body.data.filter((c: { email: string }) => c.email === email).length, 1, 'exactly one customer created');
      assert.deepEqual(out.webhook, { newOnly: true, oldOnly: true, neither: false, stale: false, tampered: true, parseThrew: true, eventId: 'cus_pkg' });
    } finally {
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    }
  });
});
