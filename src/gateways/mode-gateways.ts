// The outside systems of both modes, built once by a composition root (boot/*, the test
// support) and handed down in the deps objects (AppDeps, CommandDeps, the activities' deps):
// nothing below the composition roots builds an adapter or reads the gateway configuration.
// Test mode gets the simulators on the root client `db` (never a transaction client: an outside
// system's records do not roll back with ours), live mode the configured adapters or ones that
// fail with AdapterNotConfiguredError (factory.ts).
import type { Db } from '../db/client';
import type { Mode } from '../generated/prisma/client';
import type { BankClaims } from './bank-claims';
import type { CardAcquirer } from './card-acquirer';
import type { GatewayConfig } from './config';
import { createGateways, type Gateways, type TestGateways } from './factory';

export interface ModeGateways {
  /** The card acquirer of a tenant's mode. */
  cardAcquirer(mode: Mode): CardAcquirer;
  /** The bank-claim system of a tenant's mode. */
  bankClaims(mode: Mode): BankClaims;
  /** Test mode's simulators, for the test-helper use cases (which refuse live keys first). */
  readonly simulators: TestGateways;
}

export function createModeGateways(opts: { db: Db; config?: GatewayConfig }): ModeGateways {
  const test = createGateways({ mode: 'test', db: opts.db, config: opts.config });
  const live: Gateways = createGateways({ mode: 'live', config: opts.config });
  return {
    cardAcquirer: (mode) => (mode === 'test' ? test.cardAcquirer : live.cardAcquirer),
    bankClaims: (mode) => (mode === 'test' ? test.bankClaims : live.bankClaims),
    simulators: test,
  };
}
