// startDevServer retries a start that lost a port race ("address already in use") with fresh
// ports, and gives up with the dev server's own message when the port is really taken.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:net';
import { ensureTemporalCli, freePort, startDevServer } from '../../src/temporal/dev-server';

describe('temporal dev server start', function () {
  this.timeout(120_000);

  it('retries on "address already in use" and reports the conflict when a fixed port stays taken', async () => {
    const cli = await ensureTemporalCli(() => undefined);
    const port = await freePort();
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(port, '127.0.0.1', resolve));
    const lines: string[] = [];
    try {
      await assert.rejects(startDevServer({ cli, port, log: (l) => lines.push(l) }), /address already in use/);
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
    } finally {
      await dev.stop();
    }
  });
});
