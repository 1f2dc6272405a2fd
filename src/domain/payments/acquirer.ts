// The card acquirer for a tenant's mode: the simulator in test mode (state in our database,
// written through the ROOT client, never a transaction), the configured live adapter or an
// adapter that fails with adapter_not_configured in live mode (src/gateways).
import { createDb, databaseUrlOf, type Db } from '../../db/client';
import type { Mode } from '../../generated/prisma/client';
import { createCardAcquirer, gatewayConfigFromEnv, type CardAcquirer, type GatewayConfig } from '../../gateways';

let fromEnv: GatewayConfig | undefined;

/** The gateway configuration read once per process from the environment. */
export function gatewayConfig(): GatewayConfig {
  fromEnv ??= gatewayConfigFromEnv();
  return fromEnv;
}

/**
 * The test-mode simulator stands for an outside system: it gets its own small connection pool.
 * Sharing the request pool could starve it: every request of a burst holds a pooled connection
 * for its transaction while waiting for the simulator, which would then wait for a connection.
 */
const simulatorClients = new WeakMap<Db, Db>();
function simulatorDb(db: Db): Db {
  const url = databaseUrlOf(db);
  if (!url) return db;
  let sim = simulatorClients.get(db);
  if (!sim) {
    sim = createDb(url, { poolSize: 4 });
    simulatorClients.set(db, sim);
  }
  return sim;
}

export function cardAcquirerFor(db: Db, mode: Mode, config: GatewayConfig = gatewayConfig()): CardAcquirer {
  return createCardAcquirer({ mode, db: mode === 'test' ? simulatorDb(db) : db, config });
}
