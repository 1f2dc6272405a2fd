// Webhook test harness: real HTTPS receivers on 127.0.0.1 with a throwaway CA, and a worker plus
// an API instance of their own (own task queue) composed with the test-only webhook options:
// loopback receivers allowed for TEST-MODE endpoints, the test CA trusted, short attempt
// timeouts and retry delays, and a fake DNS so host names can resolve to any address. The
// shared test environment (database, Temporal dev server) is reused.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { Socket } from 'node:net';
import { createApp } from '../../../api/app';
import { createWorkflowClients } from '../../../src/temporal/workflow-clients';
import { createTemporalProvider, type TemporalProvider } from '../../../src/temporal/client';
import { createBillingWorker, type WorkerHandle } from '../../../boot/runtime/worker';
import { listen, type HttpHandle } from '../../../boot/runtime/http';
import { scopedDb } from '../../../src/db/tenancy';
import { recordEvent, type RecordedEvent } from '../../../src/events/record-event';
import { dispatchEvents } from '../../../src/events/dispatch';
import type { EventType } from '../../../src/events/types';
import type { WebhookTestingOptions } from '../../../src/domain/webhooks/testing';
import type { LookupAll } from '../../../src/webhooks/url-guard';
import { workflowIds } from '../../../src/temporal/workflow-ids';
import { freePort } from '../../../src/temporal/dev-server';
import { call, type ApiResponse, type CallOptions } from '../../support/api';
import { createTestTls, type TestTls } from '../../support/tls';
import type { TestEnv } from '../../support/env';

let tlsOnce: TestTls | undefined;
export function testTls(): TestTls {
  tlsOnce ??= createTestTls({ dnsNames: ['localhost', 'hooks.test', 'later.hooks.test'], ipAddresses: ['127.0.0.1', '::1'] });
  return tlsOnce;
}

// ---------------------------------------------------------------------------------------------
// The receiver's own signature check, written from the spec and independent of src/webhooks.

export const TOLERANCE_SECONDS = 300;

export function receiverVerifies(secret: string, headers: IncomingHttpHeaders, rawBody: string, nowSeconds = Math.floor(Date.now() / 1000)): boolean {
  const timestamp = headers['service-timestamp'];
  const signature = headers['service-signature'];
  if (typeof timestamp !== 'string' || typeof signature !== 'string') return false;
  // One signature, or one per live secret separated by commas during a rotation's overlap.
  const signatures = signature.split(',').map((sig) => sig.trim());
  if (!/^\d+$/.test(timestamp) || !signatures.every((sig) => /^[0-9a-f]+$/i.test(sig))) return false;
  if (Math.abs(nowSeconds - Number(timestamp)) > TOLERANCE_SECONDS) return false;
  const expected = createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${timestamp}.${rawBody}`, 'utf8').digest();
  return signatures.some((sig) => {
    const received = Buffer.from(sig, 'hex');
    return received.length === expected.length && timingSafeEqual(received, expected);
  });
}

// ---------------------------------------------------------------------------------------------
// Receivers

export interface Received {
  n: number;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  json: any;
  at: number;
}

/** What the receiver does with its n-th request (1-based): answer a status, or hang without answering. */
export type Behaviour = (n: number, req: Received) => number | 'hang';

export interface Receiver {
  port: number;
  url(path?: string): string;
  requests: Received[];
  behaviour: Behaviour;
  /** Resolves once `count` requests have arrived (no timer: the mocha timeout bounds it). */
  waitFor(count: number): Promise<void>;
  listen(): Promise<void>;
  close(): Promise<void>;
}

export async function startReceiver(behaviour: Behaviour = () => 200, opts: { port?: number; listening?: boolean } = {}): Promise<Receiver> {
  const tls = testTls();
  const events = new EventEmitter();
  const sockets = new Set<Socket>();
  const requests: Received[] = [];
  let server: Server | undefined;
  const port = opts.port ?? (await freePort());
  const receiver: Receiver = {
    port,
    url: (path = '/hook') => `https://127.0.0.1:${port}${path}`,
    requests,
    behaviour,
    waitFor: (count) =>
      new Promise<void>((resolve) => {
        if (requests.length >= count) return resolve();
        const check = () => {
          if (requests.length >= count) {
            events.off('request', check);
            resolve();
          }
        };
        events.on('request', check);
      }),
    async listen() {
      server = createServer({ key: tls.key, cert: tls.cert }, (req: IncomingMessage, res: ServerResponse) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8');
          let json: unknown = undefined;
          try {
            json = JSON.parse(body);
          } catch {
            json = undefined;
          }
          const r: Received = { n: requests.length + 1, path: req.url ?? '', headers: req.headers, body, json, at: Date.now() };
          requests.push(r);
          const what = receiver.behaviour(r.n, r);
          if (what !== 'hang') res.writeHead(what, { 'Content-Type': 'text/plain' }).end(`answer ${what}`);
          events.emit('request');
        });
      });
      server.on('connection', (s: Socket) => {
        sockets.add(s);
        s.on('close', () => sockets.delete(s));
      });
      await new Promise<void>((resolve, reject) => {
        server!.once('error', reject);
        server!.listen(port, '127.0.0.1', () => resolve());
      });
    },
    async close() {
      if (!server) return;
      const s = server;
      server = undefined;
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => s.close(() => resolve()));
    },
  };
  if (opts.listening !== false) await receiver.listen();
  return receiver;
}

// ---------------------------------------------------------------------------------------------
// Fake DNS: names map to addresses; anything else does not resolve.

export class FakeDns {
  readonly table = new Map<string, string[]>([
    ['hooks.test', ['127.0.0.1']],
    ['public.example.com', ['93.184.216.34']],
    ['loopback.example.com', ['127.0.0.1']],
    ['private10.example.com', ['10.1.2.3']],
    ['private172.example.com', ['172.20.0.5']],
    ['private192.example.com', ['192.168.10.20']],
    ['ula6.example.com', ['fd12:3456::1']],
    ['linklocal.example.com', ['169.254.10.20']],
    ['linklocal6.example.com', ['fe80::1']],
    ['metadata.example.com', ['169.254.169.254']],
    ['metadata6.example.com', ['fd00:ec2::254']],
    ['mapped.example.com', ['::ffff:10.0.0.1']],
    ['mixed.example.com', ['93.184.216.34', '192.168.1.1']],
    ['unspecified.example.com', ['0.0.0.0']],
  ]);

  readonly lookup: LookupAll = async (hostname) => {
    const found = this.table.get(hostname);
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
}

// ---------------------------------------------------------------------------------------------
// Worker + API with the test-only options

export interface Harness {
  taskQueue: string;
  baseUrl: string;
  dns: FakeDns;
  testing: WebhookTestingOptions;
  temporal: TemporalProvider;
  worker: WorkerHandle;
  /** Calls this harness's API. */
  call<T = any>(m: { secretKey: string; id: string }, method: string, path: string, opts?: CallOptions & { live?: string }): Promise<ApiResponse<T>>;
  /** Records an event the way an area does (in a transaction) and dispatches it after commit. */
  emit(merchantId: string, type: EventType, data: Record<string, unknown>, opts?: { mode?: 'test' | 'live'; dispatch?: boolean }): Promise<RecordedEvent>;
  deliveryHandle(eventId: string, endpointId: string): ReturnType<TestEnv['client']['workflow']['getHandle']>;
  close(): Promise<void>;
}

const quiet = () => undefined;

export async function startHarness(env: TestEnv, opts: { retryDelaysMs: number[]; attemptTimeoutMs?: number }): Promise<Harness> {
  const dns = new FakeDns();
  const taskQueue = `webhooks-test-${randomBytes(4).toString('hex')}`;
  const testing: WebhookTestingOptions = {
    allowLoopback: true,
    ca: testTls().ca,
    attemptTimeoutMs: opts.attemptTimeoutMs ?? 1500,
    retryDelaysMs: opts.retryDelaysMs,
    lookup: dns.lookup,
  };
  const config = { ...env.config, taskQueue };
  const worker = await createBillingWorker({
    db: env.db,
    config,
    gateways: env.gateways,
    log: quiet,
    address: env.temporalAddress,
    namespace: config.temporalNamespace,
    taskQueue,
    webhookTesting: testing,
  });
  const running = worker.run();
  const temporal = createTemporalProvider({ address: env.temporalAddress, namespace: config.temporalNamespace, taskQueue });
  const app = createApp({ db: env.db, config, temporal, workflows: createWorkflowClients(temporal), gateways: env.gateways, log: quiet, webhookTesting: testing });
  const http: HttpHandle = await listen(app, 0, '127.0.0.1');
  const baseUrl = `http://127.0.0.1:${http.port}`;

  return {
    taskQueue,
    baseUrl,
    dns,
    testing,
    temporal,
    worker,
    call(m, method, path, o = {}) {
      return call(env, method, path, { key: o.live ?? m.secretKey, merchant: m.id, baseUrl, ...o });
    },
    async emit(merchantId, type, data, o = {}) {
      const tenant = { merchantId, mode: o.mode ?? 'test' } as const;
      const scoped = scopedDb(env.db, tenant);
      const evt = await scoped.$transaction((tx) => recordEvent(tx, tenant, { type, data }));
      if (o.dispatch !== false) {
        const summary = await dispatchEvents({ db: env.db, client: env.client, taskQueue }, [evt]);
        if (summary.failed !== 0) throw new Error(`dispatch failed: ${JSON.stringify(summary)}`);
      }
      return evt;
    },
    deliveryHandle(eventId, endpointId) {
      return env.client.workflow.getHandle(workflowIds.delivery(eventId, endpointId));
    },
    async close() {
      await http.close(1000);
      await (app as { shutdown?: () => Promise<void> }).shutdown?.();
      await temporal.close();
      await worker.shutdown();
      await running.catch(() => undefined);
    },
  };
}

/** Creates an endpoint through the harness API and returns the created body (with its secret). */
export async function createEndpoint(h: Harness, m: { secretKey: string; id: string }, body: Record<string, unknown>, live?: string) {
  const res = await h.call(m, 'POST', '/v1/webhook_endpoints', { body, live });
  if (res.status !== 201) throw new Error(`endpoint create failed: ${res.status} ${res.text}`);
  return res.body as { id: string; secret: string; url: string; events: string[]; status: string };
}
