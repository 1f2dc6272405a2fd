// Picks the adapters for a mode. Test mode: the simulators (state in our database). Live
// mode: the implementations in config.live, or adapters that throw AdapterNotConfiguredError
// on every call. Construction never fails, so a composition root can build both modes at
// start and live-mode requests fail clearly, one by one, until an adapter is configured.
import type { Db } from '../db/client';
import type { Mode } from '../generated/prisma/client';
import type { BankClaims } from './bank-claims';
import { BankClaimsSimulator } from './bank-claims-simulator';
import type { CardAcquirer } from './card-acquirer';
import { CardSimulator } from './card-simulator';
import type { GatewayConfig } from './config';
import { UnconfiguredBankClaims, UnconfiguredCardAcquirer } from './unconfigured';

export interface Gateways {
  cardAcquirer: CardAcquirer;
  bankClaims: BankClaims;
}

/** Test mode's gateways, typed as the simulators so tests and test-helper routes reach their helpers. */
export interface TestGateways extends Gateways {
  cardAcquirer: CardSimulator;
  bankClaims: BankClaimsSimulator;
}

export interface GatewayOptions<M extends Mode = Mode> {
  mode: M;
  /** The root client (never a transaction): required in test mode, unused in live mode. */
  db?: Db;
  config?: GatewayConfig;
}

function requireDb(db: Db | undefined): Db {
  if (!db) throw new Error('the test-mode simulators need a database client (db)');
  return db;
}

export function createCardAcquirer(opts: GatewayOptions<'test'> & { db: Db }): CardSimulator;
export function createCardAcquirer(opts: GatewayOptions): CardAcquirer;
export function createCardAcquirer(opts: GatewayOptions): CardAcquirer {
  if (opts.mode === 'test') return new CardSimulator(requireDb(opts.db), opts.config?.simulator);
  return opts.config?.live?.cardAcquirer ?? new UnconfiguredCardAcquirer();
}

export function createBankClaims(opts: GatewayOptions<'test'> & { db: Db }): BankClaimsSimulator;
export function createBankClaims(opts: GatewayOptions): BankClaims;
export function createBankClaims(opts: GatewayOptions): BankClaims {
  if (opts.mode === 'test') return new BankClaimsSimulator(requireDb(opts.db), opts.config?.simulator);
  return opts.config?.live?.bankClaims ?? new UnconfiguredBankClaims();
}

export function createGateways(opts: GatewayOptions<'test'> & { db: Db }): TestGateways;
export function createGateways(opts: GatewayOptions): Gateways;
export function createGateways(opts: GatewayOptions): Gateways {
  return { cardAcquirer: createCardAcquirer(opts), bankClaims: createBankClaims(opts) };
}
