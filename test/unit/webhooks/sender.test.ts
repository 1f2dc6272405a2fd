import assert from 'node:assert/strict';
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { deliverOnce } from '../../../src/webhooks/sender';
import type { LookupAll } from '../../../src/webhooks/url-guard';
import { createTestTls, type TestTls } from '../../support/tls';

interface ReceivedRequest {
  method: string | undefined;
  path: string | undefined;
  headers: IncomingHttpHeaders;
  body: string;
  servername: string | false | null | undefined;
  signatureValid: boolean;
}

type Responder = (req: IncomingMessage, res: ServerResponse) => void;

interface Receiver {
  port: number;
  requests: ReceivedRequest[];
  close(): Promise<void>;
}

// The receiver's own check, written from the spec and independent of src/webhooks/signature.
function receiverVerifies(secret: string, headers: IncomingHttpHeaders, body: string, nowSeconds: number): boolean {
  const timestamp = headers['service-timestamp'];
  const signature = headers['service-signature'];
  if (typeof timestamp !== 'string' || typeof signature !== 'string') return false;
  if (Math.abs(nowSeconds - Number(timestamp)) > 300) return false;
  const expected = Buffer.from(createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex'));
  const received = Buffer.from(signature);
  return expected.length === received.length && timingSafeEqual(expected, received);
}

async function startReceiver(tls: TestTls, secret: string, nowSeconds: number, routes: Record<string, Responder>, host = '127.0.0.1'): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const server: Server = createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      requests.push({
        method: req.method,
        path: req.url,
        headers: req.headers,
        body,
        servername: (req.socket as TLSSocket).servername,
        signatureValid: receiverVerifies(secret, req.headers, body, nowSeconds),
      });
      const route = routes[req.url ?? ''];
      if (route === undefined) {
        res.writeHead(404).end('no such route');
        return;
      }
      route(req, res);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** An injected resolver that counts its calls; real DNS is never used in these tests. */
function countingLookup(answers: Array<string[] | Error>): LookupAll & { calls: number } {
  const lookup = async () => {
    const answer = answers[Math.min(state.calls, answers.length - 1)];
    state.calls += 1;
    if (answer instanceof Error) throw answer;
    return answer.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  const state = Object.assign(lookup, { calls: 0 });
  return state;
}

describe('webhooks/sender deliverOnce', function () {
  this.timeout(15_000);

  const secret = 'whsec_sender_test_secret_value';
  const nowSeconds = 1_700_000_000;
  const body = JSON.stringify({ id: 'evt_123', type: 'invoice.paid', created_at: '2024-01-01T00:00:00Z', data: { total: 1990 } });
  let tls: TestTls;
  let receiver: Receiver;

  before(async () => {
    tls = createTestTls({ dnsNames: ['localhost', 'hooks.test'], ipAddresses: ['127.0.0.1', '::1'] });
    receiver = await startReceiver(tls, secret, nowSeconds, {
      '/ok': (_req, res) => res.writeHead(200, { 'Content-Type': 'text/plain' }).end('thanks'),
      '/no-content': (_req, res) => res.writeHead(204).end(),
      '/fail': (_req, res) => res.writeHead(500).end('receiver exploded'),
      '/redirect': (_req, res) => res.writeHead(302, { Location: '/ok' }).end(),
      '/big': (_req, res) => res.writeHead(200).end('x'.repeat(100 * 1024)),
      '/hang': () => undefined, // never answers
      '/stall-after-headers': (_req, res) => {
        res.writeHead(200);
        res.write('partial');
      },
    });
  });

  after(async () => {
    await receiver?.close();
  });

  beforeEach(() => {
    receiver.requests.length = 0;
  });

  const url = (path: string, host = '127.0.0.1') => `https://${host}:${receiver.port}${path}`;
  const send = (path: string, extra: Partial<Parameters<typeof deliverOnce>[0]> = {}) =>
    deliverOnce({ url: url(path), body, secrets: [secret], nowSeconds, allowLoopback: true, ca: tls.ca, ...extra });

  it('delivers on 200 with signed headers the receiver verifies independently', async () => {
    const result = await send('/ok');
    assert.equal(result.outcome, 'delivered');
    assert.equal(result.statusCode, 200);
    assert.equal(result.error, null);
    assert.equal(result.responseBodySnippet, 'thanks');
    assert.ok(Number.isInteger(result.latencyMs) && result.latencyMs >= 0 && result.latencyMs < 5000);

    assert.equal(receiver.requests.length, 1);
    const [received] = receiver.requests;
    assert.equal(received.method, 'POST');
    assert.equal(received.path, '/ok');
    assert.equal(received.body, body);
    assert.equal(received.headers['content-type'], 'application/json');
    assert.equal(received.headers['content-length'], String(Buffer.byteLength(body)));
    assert.match(received.headers['user-agent'] ?? '', /\S/);
    assert.equal(received.headers['service-timestamp'], String(nowSeconds));
    assert.equal(received.signatureValid, true);
  });

  it('treats 204 as delivered with an empty snippet', async () => {
    const result = await send('/no-content');
    assert.equal(result.outcome, 'delivered');
    assert.equal(result.statusCode, 204);
    assert.equal(result.responseBodySnippet, '');
  });

  it('fails on 500 and keeps the status and body', async () => {
    const result = await send('/fail');
    assert.equal(result.outcome, 'failed');
    assert.equal(result.statusCode, 500);
    assert.match(result.error ?? '', /500/);
    assert.equal(result.responseBodySnippet, 'receiver exploded');
  });

  it('fails on 302 and does not follow the redirect', async () => {
    const result = await send('/redirect');
    assert.equal(result.outcome, 'failed');
    assert.equal(result.statusCode, 302);
    assert.match(result.error ?? '', /redirect/);
    assert.deepEqual(
      receiver.requests.map((r) => r.path),
      ['/redirect'],
    );
  });

  it('keeps at most 4 KiB of the response body', async () => {
    const result = await send('/big');
    assert.equal(result.outcome, 'delivered');
    assert.equal(result.responseBodySnippet, 'x'.repeat(4096));
  });

  it('times out a receiver that never answers, and stops', async () => {
    const started = Date.now();
    const result = await send('/hang', { timeoutMs: 500 });
    const elapsed = Date.now() - started;
    assert.equal(result.outcome, 'failed');
    assert.equal(result.error, 'timeout');
    assert.equal(result.statusCode, null);
    assert.equal(result.responseBodySnippet, null);
    assert.ok(elapsed >= 450 && elapsed < 5000, `elapsed ${elapsed} ms`);
    assert.ok(result.latencyMs >= 450 && result.latencyMs < 5000);
  });

  it('lets the status decide when the body stalls after a 2xx', async () => {
    // Headers must arrive within the timeout (TLS handshake included): 2 s leaves room on a loaded machine.
    const result = await send('/stall-after-headers', { timeoutMs: 2000 });
    assert.equal(result.outcome, 'delivered');
    assert.equal(result.statusCode, 200);
    assert.equal(result.responseBodySnippet, 'partial');
  });

  it('times out a resolver that never answers', async () => {
    const neverAnswers: LookupAll = () => new Promise(() => undefined);
    const started = Date.now();
    const result = await send('/ok', { url: url('/ok', 'hooks.test'), lookup: neverAnswers, timeoutMs: 300 });
    assert.equal(result.error, 'timeout');
    assert.ok(Date.now() - started < 5000);
  });

  it('fails with an error when the connection is refused', async () => {
    const closed = await startReceiver(tls, secret, nowSeconds, {});
    const port = closed.port;
    await closed.close();
    const result = await deliverOnce({
      url: `https://127.0.0.1:${port}/ok`,
      body,
      secrets: [secret],
      nowSeconds,
      allowLoopback: true,
      ca: tls.ca,
    });
    assert.equal(result.outcome, 'failed');
    assert.equal(result.statusCode, null);
    assert.match(result.error ?? '', /ECONNREFUSED/);
  });

  it('verifies the certificate: without the test CA the delivery fails', async () => {
    const result = await send('/ok', { ca: undefined });
    assert.equal(result.outcome, 'failed');
    assert.equal(result.statusCode, null);
    assert.match(result.error ?? '', /CERT|certificate|SELF_SIGNED|ISSUER/i);
    assert.equal(receiver.requests.length, 0);
  });

  it('verifies the certificate against another CA too', async () => {
    const stranger = createTestTls();
    const result = await send('/ok', { ca: stranger.ca });
    assert.equal(result.outcome, 'failed');
    assert.match(result.error ?? '', /CERT|certificate|signature|ISSUER/i);
    assert.equal(receiver.requests.length, 0);
  });

  it('pins the checked address but verifies TLS against the host name', async () => {
    // First answer is loopback; any later lookup (a rebinding attempt) would be private.
    const lookup = countingLookup([['127.0.0.1'], ['10.0.0.1']]);
    const result = await send('/ok', { url: url('/ok', 'hooks.test'), lookup });
    assert.equal(result.outcome, 'delivered', result.error ?? undefined);
    assert.equal(lookup.calls, 1, 'resolved exactly once; the connection used that answer');
    const [received] = receiver.requests;
    assert.equal(received.headers.host, `hooks.test:${receiver.port}`);
    assert.equal(received.servername, 'hooks.test');
    assert.equal(received.signatureValid, true);
  });

  it('refuses a pinned connection whose certificate does not name the host', async () => {
    const lookup = countingLookup([['127.0.0.1']]);
    const result = await send('/ok', { url: url('/ok', 'other.test'), lookup });
    assert.equal(result.outcome, 'failed');
    assert.match(result.error ?? '', /ERR_TLS_CERT_ALTNAME_INVALID/);
    assert.equal(receiver.requests.length, 0);
  });

  it('refuses before connecting when any resolved address is forbidden', async () => {
    const lookup = countingLookup([['127.0.0.1', '10.0.0.1']]);
    const result = await send('/ok', { url: url('/ok', 'hooks.test'), lookup });
    assert.equal(result.outcome, 'failed');
    assert.equal(result.statusCode, null);
    assert.match(result.error ?? '', /^forbidden_address: /);
    assert.equal(receiver.requests.length, 0);
  });

  it('refuses loopback without allowLoopback, and plain http always', async () => {
    const withoutFlag = await send('/ok', { allowLoopback: false });
    assert.equal(withoutFlag.outcome, 'failed');
    assert.match(withoutFlag.error ?? '', /^forbidden_address: /);
    const plainHttp = await send('/ok', { url: `http://127.0.0.1:${receiver.port}/ok` });
    assert.match(plainHttp.error ?? '', /^https_required: /);
    const dnsFailure = await send('/ok', {
      url: url('/ok', 'hooks.test'),
      lookup: countingLookup([Object.assign(new Error('getaddrinfo ENOTFOUND hooks.test'), { code: 'ENOTFOUND' })]),
    });
    assert.match(dnsFailure.error ?? '', /^dns_failed: /);
    assert.equal(receiver.requests.length, 0);
  });

  it('delivers to an IPv6 loopback receiver', async function () {
    let v6: Receiver;
    try {
      v6 = await startReceiver(tls, secret, nowSeconds, { '/ok': (_req, res) => res.writeHead(200).end() }, '::1');
    } catch {
      this.skip(); // no IPv6 loopback on this machine
    }
    try {
      const result = await deliverOnce({
        url: `https://[::1]:${v6.port}/ok`,
        body,
        secrets: [secret],
        nowSeconds,
        allowLoopback: true,
        ca: tls.ca,
      });
      assert.equal(result.outcome, 'delivered', result.error ?? undefined);
      assert.equal(v6.requests[0].signatureValid, true);
    } finally {
      await v6.close();
    }
  });
});
