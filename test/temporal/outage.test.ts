// While Temporal is down the client layer fails fast (src/temporal/client.ts, docs/operations.md
// "When Temporal is down"): a call answers within the retry budget instead of the SDK's ~20 s,
// later calls are refused at once while a probe watches the health service, and the first
// SERVING answer after a restart lets calls through again without restarting anything.
import assert from 'node:assert/strict';
import os from 'node:os';
import path from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import { createTemporalProvider, TemporalDownError, type TemporalProvider } from '../../src/temporal/client';
import { ensureTemporalCli, freePort, startDevServer, type DevServer } from '../../src/temporal/dev-server';
import { createWorkflowClients } from '../../src/temporal/workflow-clients';
import { TemporalUnavailableError } from '../../src/temporal/connection';
import { isTemporalUnavailable } from '../../src/temporal/unavailable';

describe('the Temporal client layer during an outage', function () {
  this.timeout(240_000);
  let tmp: string;
  let server: DevServer | undefined;
  let provider: TemporalProvider | undefined;
  before(() => (tmp = mkdtempSync(path.join(os.tmpdir(), 'temporal-outage-'))));
  after(async () => {
    await provider?.close();
    await server?.stop();
    rmSync(tmp, { recursive: true, force: true });
  });

  const timed = async (f: () => Promise<unknown>): Promise<{ ms: number; err: unknown }> => {
    const t0 = Date.now();
    const err = await f().then(
      () => undefined,
      (e: unknown) => e,
    );
    return { ms: Date.now() - t0, err };
  };

  it('answers "unavailable" in well under 2 s, refuses at once while down, and recovers by itself', async () => {
    const cli = await ensureTemporalCli(() => undefined);
    const port = await freePort();
    const dbFile = path.join(tmp, 'temporal.sqlite');
    server = await startDevServer({ cli, port, dbFile, log: () => undefined });
    provider = createTemporalProvider({ address: server.address, namespace: 'default', taskQueue: 'outage-test' });
    const workflows = createWorkflowClients(provider);
    // Up: a signal to a clock workflow that does not run is answered "not running".
    await workflows.testClock.signalDeleted('clock_outage_1');
    assert.equal(await provider.healthy(), true);

    await server.stop();
    server = undefined;
    // The first call finds out: bounded by the retry budget, classified as "unavailable" (503).
    const first = await timed(() => workflows.testClock.signalDeleted('clock_outage_1'));
    assert.ok(first.err, 'the call failed');
    assert.ok(first.err instanceof TemporalUnavailableError || isTemporalUnavailable(first.err), String(first.err));
    assert.ok(first.ms < 2000, `first call answered after ${first.ms} ms`);
    assert.notEqual(provider.downSince(), null);
    // Known down: refused before any network call.
    const second = await timed(() => workflows.subscription.refresh('sub_outage_1'));
    assert.ok(second.err instanceof TemporalUnavailableError, String(second.err));
    assert.ok(second.err.message.includes(new TemporalDownError(provider.downSince()!).message));
    assert.ok(second.ms < 200, `second call answered after ${second.ms} ms`);
    assert.equal(await provider.healthy(1000), false);

    // Temporal comes back on the same address: the probe notices, calls go through again.
    server = await startDevServer({ cli, port, dbFile, log: () => undefined });
    const back = Date.now();
    while (provider.downSince() !== null && Date.now() - back < 30_000) await new Promise((r) => setTimeout(r, 100));
    assert.equal(provider.downSince(), null, 'marked up again after the restart');
    await workflows.testClock.signalDeleted('clock_outage_1');
  });

  it('a server that hangs holds a call for the call deadline at most, then calls are refused at once until it answers again', async () => {
    const cli = await ensureTemporalCli(() => undefined);
    const hanging = await startDevServer({ cli, port: 0, log: () => undefined });
    const callTimeoutMs = 1500;
    const p = createTemporalProvider({ address: hanging.address, namespace: 'default', taskQueue: 'hang-test', callTimeoutMs });
    try {
      const workflows = createWorkflowClients(p);
      await workflows.testClock.signalDeleted('clock_hang_1');
      // Suspended: the socket stays open and accepts, nothing answers (no UNAVAILABLE ever comes).
      process.kill(hanging.pid!, 'SIGSTOP');
      const first = await timed(() => workflows.subscription.refresh('sub_hang_1'));
      assert.ok(first.err, 'the call failed');
      assert.ok(isTemporalUnavailable(first.err) || first.err instanceof TemporalUnavailableError, String(first.err));
      // Functional bound, not a speed target: the deadline (1.5 s) plus scheduling slack on a busy
      // machine, far below the SDK's ~20 s of retries or an unbounded wait.
      assert.ok(first.ms >= callTimeoutMs - 50 && first.ms < callTimeoutMs + 3000, `answered after ${first.ms} ms`);
      // The timed-out call made the provider ask the health service, which does not answer either.
      const since = Date.now();
      while (p.downSince() === null && Date.now() - since < 5000) await new Promise((r) => setTimeout(r, 50));
      assert.notEqual(p.downSince(), null, 'marked down after the health check timed out');
      const second = await timed(() => workflows.subscription.refresh('sub_hang_1'));
      assert.ok(second.err instanceof TemporalUnavailableError, String(second.err));
      assert.ok(second.ms < 200, `second call answered after ${second.ms} ms`);

      process.kill(hanging.pid!, 'SIGCONT');
      const back = Date.now();
      while (p.downSince() !== null && Date.now() - back < 30_000) await new Promise((r) => setTimeout(r, 100));
      assert.equal(p.downSince(), null, 'marked up again once it answers');
      await workflows.testClock.signalDeleted('clock_hang_1');
    } finally {
      try {
        process.kill(hanging.pid!, 'SIGCONT');
      } catch {
        // already gone
      }
      await p.close();
      await hanging.stop();
    }
  });
});
