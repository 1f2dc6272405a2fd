// Brings Temporal up for the service: TEMPORAL_ADDRESS when set, else the CLI dev server with
// SQLite persistence under the data directory and the Web UI.
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { ensureTemporalCli, startDevServer, type DevServer } from '../../src/temporal/dev-server';
import { ensureSearchAttributes } from '../../src/temporal/provision';

export interface TemporalEndpoint {
  address: string;
  uiUrl: string | null;
  devServer?: DevServer;
}

/** Whether a Temporal frontend answers on address (its own subchannel pool: see probeTemporal). */
async function answers(address: string): Promise<boolean> {
  try {
    const c = await Connection.connect({ address, connectTimeout: 1500, channelArgs: { 'grpc.use_local_subchannel_pool': 1 } });
    await c.close();
    return true;
  } catch {
    return false;
  }
}

export async function prepareTemporal(opts: {
  address: string | undefined;
  namespace: string;
  dataDir: string;
  uiPort: number;
  log: (line: string) => void;
}): Promise<TemporalEndpoint> {
  let endpoint: TemporalEndpoint;
  if (opts.address) {
    endpoint = { address: opts.address, uiUrl: null };
  } else if (await answers('127.0.0.1:7233')) {
    opts.log('Temporal already answers on 127.0.0.1:7233; using it');
    endpoint = { address: '127.0.0.1:7233', uiUrl: `http://localhost:${opts.uiPort}` };
  } else {
    const cli = await ensureTemporalCli(opts.log);
    const dbFile = path.resolve(opts.dataDir, 'temporal', 'dev.sqlite');
    opts.log(`starting the Temporal dev server (${cli}), state in ${dbFile}`);
    const devServer = await startDevServer({ cli, port: 7233, uiPort: opts.uiPort, dbFile, log: opts.log, namespace: opts.namespace });
    endpoint = { address: devServer.address, uiUrl: `http://localhost:${opts.uiPort}`, devServer };
  }
  const conn = await Connection.connect({ address: endpoint.address });
  try {
    const added = await ensureSearchAttributes(conn, opts.namespace);
    if (added.length) opts.log(`registered search attributes: ${added.join(', ')}`);
  } finally {
    await conn.close();
  }
  return endpoint;
}
