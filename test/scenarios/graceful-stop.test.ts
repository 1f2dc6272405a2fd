// Stopping and starting as an orchestrator sees it (docs/operations.md "Stopping and readiness"):
// a SIGTERMed API answers GET /readyz 503 while it keeps serving for SHUTDOWN_DRAIN_SECONDS,
// then stops accepting and finishes the requests in flight; a worker's /readyz is 200 only once it
// polls its task queue. Both run as the real entry points (dist/boot/*.js) in processes.
import assert from 'node:assert/strict';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { mkdtempSync } from 'node:fs';
import { envAndMerchants, type TestEnv } from '../support/env';
import { newMerchant, type TestMerchant } from '../support/api';
import { freePort, startServiceProcess, stopProcess } from '../support/processes';

describe('graceful stop and readiness of the service processes', function () {
  this.timeout(180_000);
  let env: TestEnv, m: TestMerchant;
  let baseEnv: NodeJS.ProcessEnv;
  before(async () => {
    [env, m] = await envAndMerchants(newMerchant);
    baseEnv = {
      PATH: process.env.PATH,
      DATABASE_URL: env.databaseUrl,
      TEMPORAL_ADDRESS: env.temporalAddress,
      TEMPORAL_NAMESPACE: env.config.temporalNamespace,
      // The suite's own task queue: the worker's schedules stay where the suite's worker polls.
      TEMPORAL_TASK_QUEUE: env.config.taskQueue,
      BILLING_DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'billing-stop-')),
      LOG_FORMAT: 'json',
    };
  });

  const get = async (url: string) => {
    const res = await fetch(url, { headers: { Authorization: `Bearer ${m.secretKey}`, 'X-Merchant-Id': m.id } });
    return { status: res.status, body: (await res.json()) as any };
  };

  // Each on a new connection, as a load balancer's probe or a new client opens one.
  const freshGet = (url: string) =>
    new Promise<{ status: number; body: any }>((resolve, reject) => {
      const req = http.get(url, { agent: false, headers: { Authorization: `Bearer ${m.secretKey}`, 'X-Merchant-Id': m.id } }, (res) => {
        let text = '';
        res.on('data', (d) => (text += String(d)));
        res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
      });
      req.on('error', reject);
    });

  const waitReady = async (url: string) => {
    let last: unknown;
    for (let i = 0; i < 100; i++) {
      const r = await get(url);
      if (r.status === 200) return;
      last = r.body;
      await new Promise((res) => setTimeout(res, 200));
    }
    assert.fail(`not ready: ${JSON.stringify(last)}`);
  };

  it('a SIGTERMed API: /readyz 503 while still serving, then stops accepting and finishes what is in flight', async () => {
    const api = startServiceProcess(['dist/boot/api.js'], { ...baseEnv, PORT: '0', SHUTDOWN_DRAIN_SECONDS: '8' });
    const port = Number((await api.waitFor(/listening on http:\/\/localhost:(\d+)/))[1]);
    const base = `http://127.0.0.1:${port}`;
    // Ready once PostgreSQL and Temporal answer (the first check also connects to Temporal).
    await waitReady(`${base}/readyz`);

    // A burst in flight when the signal comes, and a request whose body is still arriving.
    const burst = Array.from({ length: 50 }, () => get(`${base}/v1/customers`));
    const body = JSON.stringify({ name: 'Slow upload', email: 'slow@example.com' });
    const slow = http.request(`${base}/v1/customers`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${m.secretKey}`, 'X-Merchant-Id': m.id, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
    });
    const slowAnswer = new Promise<{ status: number; text: string }>((resolve, reject) => {
      slow.on('response', (res) => {
        let text = '';
        res.on('data', (d) => (text += String(d)));
        res.on('end', () => resolve({ status: res.statusCode!, text }));
      });
      slow.on('error', reject);
    });
    slow.write(body.slice(0, 10));
    await new Promise((r) => setTimeout(r, 200));
    const signalled = Date.now();
    api.child.kill('SIGTERM');
    await api.waitFor(/draining for 8 s/);

    // During the drain: not ready, still serving.
    const during = await freshGet(`${base}/readyz`);
    assert.equal(during.status, 503);
    assert.equal(during.body.status, 'draining');
    assert.equal((await freshGet(`${base}/v1/customers`)).status, 200);
    const answered = await Promise.all(burst);
    assert.deepEqual(
      answered.map((a) => a.status),
      answered.map(() => 200),
    );

    // After the drain the listener is closed: a new connection is refused...
    await api.waitFor(/finishing requests in flight/);
    assert.ok(Date.now() - signalled >= 7_900, 'the listener stayed open for the drain period');
    let refused = false;
    for (let i = 0; i < 20 && !refused; i++) {
      refused = await freshGet(`${base}/livez`).then(
        () => false,
        (err: NodeJS.ErrnoException) => err.code === 'ECONNREFUSED',
      );
      if (!refused) await new Promise((r) => setTimeout(r, 50));
    }
    assert.ok(refused, 'new connections are refused once the listener is closed');
    // ...while the request in flight finishes.
    slow.end(body.slice(10));
    const slowRes = await slowAnswer;
    assert.equal(slowRes.status, 201, slowRes.text);
    assert.equal(JSON.parse(slowRes.text).name, 'Slow upload');
    assert.equal(await api.exited, 0);
  });

  it("a worker's /readyz is 200 only once it polls its task queue", async () => {
    const metricsPort = await freePort();
    const worker = startServiceProcess(['dist/boot/worker.js'], { ...baseEnv, METRICS_PORT: String(metricsPort) });
    await worker.waitFor(/worker metrics on/);
    const seen: Array<{ status: number; ok: boolean }> = [];
    let pollersAtReady: string[] = [];
    for (const deadline = Date.now() + 120_000; Date.now() < deadline;) {
      // A new connection each time: the process blocks its event loop while it bundles workflows,
      // which can outlast a kept-alive socket's timeout mid-request.
      const res = await freshGet(`http://127.0.0.1:${metricsPort}/readyz`);
      seen.push({ status: res.status, ok: res.body.checks?.worker?.ok });
      if (res.status === 200) {
        // Ready: this process's pollers are on the task queue (its identity is pid@host).
        for (let i = 0; i < 20 && pollersAtReady.length === 0; i++) {
          const q = await env.client.workflowService.describeTaskQueue({ namespace: env.config.temporalNamespace, taskQueue: { name: env.config.taskQueue }, taskQueueType: 1 });
          pollersAtReady = (q.pollers ?? []).map((p) => p.identity ?? '').filter((id) => id.startsWith(`${worker.child.pid}@`));
          if (pollersAtReady.length === 0) await new Promise((r) => setTimeout(r, 100));
        }
        break;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(seen.at(-1)?.status, 200, `never ready: ${worker.output().slice(-2000)}`);
    assert.ok(
      seen.some((s) => s.status === 503 && s.ok === false),
      'before its Temporal worker ran, the process answered 503 with the worker check failing',
    );
    assert.ok(pollersAtReady.length > 0, 'the ready worker is among the task queue pollers');
    assert.equal(await stopProcess(worker), 0);
  });
});
