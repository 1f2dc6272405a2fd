// Configuration of the outside-system adapters, passed to createGateways() by a composition
// root (boot/*, tests). Nothing here reads the clock or the environment on its own, except
// gatewayConfigFromEnv, which a composition root calls once.
import type { BankClaims } from './bank-claims';
import type { CardAcquirer } from './card-acquirer';

export interface SimulatorConfig {
  /** How long the slow test card (4000 0000 0000 3220) keeps the caller waiting. Default 35 000 ms. */
  slowDelayMs?: number;
  /** The simulator's clock for card expiry and default bank-claim times; default wall time. */
  now?: () => Date;
}

export interface LiveGatewayConfig {
  /** A live acquirer implementation; absent: every live card call throws AdapterNotConfiguredError. */
  cardAcquirer?: CardAcquirer;
  /** A live bank-claim implementation; absent: every live claim call throws AdapterNotConfiguredError. */
  bankClaims?: BankClaims;
}

export interface GatewayConfig {
  simulator?: SimulatorConfig;
  live?: LiveGatewayConfig;
}

export const DEFAULT_SLOW_DELAY_MS = 35_000;

/** Reads CARD_SIMULATOR_SLOW_DELAY_MS (0 to 600 000). No live adapter is configurable yet. */
export function gatewayConfigFromEnv(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const raw = env.CARD_SIMULATOR_SLOW_DELAY_MS;
  if (raw === undefined || raw === '') return { simulator: {} };
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 600_000) {
    throw new Error(`environment variable CARD_SIMULATOR_SLOW_DELAY_MS must be an integer from 0 to 600000, got ${JSON.stringify(raw)}`);
  }
  return { simulator: { slowDelayMs: n } };
}
