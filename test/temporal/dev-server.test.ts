// startDevServer retries a start that lost a port race ("address already in use") with fresh
// ports, and gives up with the dev server's own message when the port is really taken; it comes
// up from an empty state directory on a busy machine; a start that cannot become ready says
// which port it waited on, for how long, what the last probe saw and what the server printed;
// dynamic config values reach the server, and its metrics endpoint answers.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { ensureTemporalCli, freePort, probeTemporal, readyTimeoutMs, startDevServer } from '../../src/temporal/dev-server';

function fakeCli(dir: string, body: string): string {
  const file = path.join(dir, 'temporal');
  writeFileSync(file, `#!/bin/sh\n${body}\n`);
  chmodSync(file, 0o755);
  return file;
}

describe('temporal dev server start', function () {
  this.timeout(180_000);
  let tmp: string;
  beforeEach(() => (tmp = mkdtempSync(path.join(os.tmpdir(), 'devserver-test-'))));
  afterEach(() => rmSync(tmp, { recursive: true, force: true }));

  it('retries on "address already in use" and reports the conflict when a fixed port stays taken', async () => {
    const cli = await ensureTemporalCli(() => undefined);
    const port = await freePort();
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(port, '127.0.0.1', resolve));
    const lines: string[] = [];
    try {
      const err: Error = await startDevServer({ cli, port, log: (l) => lines.push(l) }).then(
        () => assert.fail('started on a taken port'),
        (e: Error) => e,
      );
      assert.match(err.message, /address already in use/);
      assert.match(err.message, new RegExp(`127\\.0\\.0\\.1:${port}`));
    } finally {
      blocker.close();
    }
    assert.equal(lines.filter((l) => l.includes('retrying with fresh ports')).length, 3, lines.join('\n'));
  });

  it('port 0 picks a free port and the server answers', async () => {
    const cli = await ensureTemporalCli(() => undefined);
    const dev = await startDevServer({ cli, port: 0, log: () => undefined });
    try {
      assert.match(dev.address, /^127\.0\.0\.1:\d+$/);
      assert.notEqual(dev.address, '127.0.0.1:0');
      assert.equal(await probeTemporal(dev.address, 'default'), null);
    } finally {
      await dev.stop();
    }
  });

  it('passes dynamic config values to the server and exposes its metrics endpoint', async () => {
    const cli = await ensureTemporalCli(() => undefined);
    // A limit the server enforces on every start: workflow ids of at most 40 characters.
    const dev = await startDevServer({ cli, port: 0, log: () => undefined, dynamicConfig: { 'limit.maxIDLength': 40 } });
    const connection = await Connection.connect({ address: dev.address });
    try {
      const client = new Client({ connection });
      const start = (workflowId: string) => client.workflow.start('anyWorkflow', { taskQueue: `dyn-${process.pid}`, workflowId });
      await assert.rejects(start(`too-long-${'x'.repeat(40)}`), (e: Error & { cause?: Error }) => {
        assert.match(`${e.message}: ${e.cause?.message ?? ''}`, /WorkflowId.*length|length.*WorkflowId|exceeds length limit/i);
        return true;
      });
      const handle = await start(`short-${process.pid}`);
      await handle.terminate('test done');
      const metrics = await (await fetch(dev.metricsUrl)).text();
      assert.match(metrics, /^# TYPE \w+ (counter|gauge|histogram)/m);
    } finally {
      await connection.close();
      await dev.stop();
    }
  });

  it('comes up from an empty state directory while every core is busy', async () => {
    const cli = await ensureTemporalCli(() => undefined);
    // Two CPU-burning processes per core for the whole start (the first `npm start` runs right
    // after a CLI build, on a machine doing other work).
    const burners: ChildProcess[] = [];
    for (let i = 0; i < Math.max(2, os.cpus().length * 2); i++) burners.push(spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
    const dbFile = path.join(tmp, 'state', 'dev.sqlite');
    assert.equal(existsSync(dbFile), false);
    const lines: string[] = [];
    try {
      const dev = await startDevServer({ cli, port: 0, dbFile, namespace: 'billing-busy', log: (l) => lines.push(l) });
      try {
        assert.equal(await probeTemporal(dev.address, 'billing-busy'), null);
        assert.ok(existsSync(dbFile), 'the state file was created');
        // The state file is in write-ahead-log mode (SQLITE_PRAGMAS).
        assert.ok(existsSync(`${dbFile}-wal`), 'the SQLite write-ahead log exists');
        assert.ok(
          lines.some((l) => /ready on 127\.0\.0\.1:\d+ after/.test(l)),
          lines.join('\n'),
        );
      } finally {
        await dev.stop();
      }
    } finally {
      for (const b of burners) b.kill('SIGKILL');
    }
  });

  it('a server that never answers fails naming the port, the wait, the last probe and its output', async () => {
    const cli = fakeCli(tmp, 'echo "fake temporal started with: $*"\necho "stuck on purpose" >&2\nexec sleep 120');
    const port = await freePort();
    const err: Error = await startDevServer({ cli, port, log: () => undefined, readyTimeoutMs: 1500 }).then(
      () => assert.fail('a server that never listens was reported ready'),
      (e: Error) => e,
    );
    assert.match(err.message, new RegExp(`did not become ready on 127\\.0\\.0\\.1:${port} within 2 s \\(waited \\d+\\.\\d s`));
    assert.match(err.message, new RegExp(`last probe: nothing accepts connections on 127\\.0\\.0\\.1:${port}`));
    assert.match(err.message, /stuck on purpose/);
    assert.match(err.message, /fake temporal started with: server start-dev/);
    assert.match(err.message, /TEMPORAL_START_TIMEOUT_SECONDS/);
  });

  it('a server that exits at once fails with its exit code and output', async () => {
    const cli = fakeCli(tmp, 'echo "cannot open the state file" >&2\nexit 3');
    const port = await freePort();
    await assert.rejects(startDevServer({ cli, port, log: () => undefined }), (e: Error) => {
      assert.match(e.message, new RegExp(`for 127\\.0\\.0\\.1:${port} exited \\(3\\)`));
      assert.match(e.message, /cannot open the state file/);
      return true;
    });
  });

  it('the wait is TEMPORAL_START_TIMEOUT_SECONDS, 120 s by default', () => {
    assert.equal(readyTimeoutMs({}), 120_000);
    assert.equal(readyTimeoutMs({ TEMPORAL_START_TIMEOUT_SECONDS: '300' }), 300_000);
    assert.equal(readyTimeoutMs({ TEMPORAL_START_TIMEOUT_SECONDS: 'soon' }), 120_000);
  });
});
