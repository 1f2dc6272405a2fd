// Helpers shared by the simulators: request fingerprints, their own ids, input checks.
import { createHash } from 'node:crypto';
import { randomToken } from '../ids';
import { GatewayInvalidRequestError, type GatewaySystem } from './errors';

/** SHA-256 over the parameters that must match when an idempotency key is reused. */
export function requestHash(parts: ReadonlyArray<string | number | null | undefined>): string {
  return createHash('sha256')
    .update(JSON.stringify(parts.map((p) => (p === undefined ? null : p))))
    .digest('hex');
}

/** Ids of the simulated outside system: its own namespace, never one of our API prefixes. */
export function simulatorId(prefix: 'tok_sim' | 'ch_sim' | 're_sim' | 'clm_sim'): string {
  return `${prefix}_${randomToken(24)}`;
}

export function requireString(system: GatewaySystem, value: unknown, param: string, max = 255): string {
  if (typeof value !== 'string' || value.trim() === '' || value.length > max) {
    throw new GatewayInvalidRequestError(system, 'parameter_invalid', `${param} must be a non-empty string of at most ${max} characters`, param);
  }
  return value;
}

export function requireAmount(system: GatewaySystem, value: unknown, param = 'amount'): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) {
    throw new GatewayInvalidRequestError(system, 'parameter_invalid', `${param} must be a positive integer in the currency's minor unit`, param);
  }
  return value;
}

export function requireDate(system: GatewaySystem, value: unknown, param: string): Date {
  if (!(value instanceof Date) || Number.isNaN(value.getTime())) {
    throw new GatewayInvalidRequestError(system, 'parameter_invalid', `${param} must be a valid Date`, param);
  }
  return value;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Options for the simulators' short interactive transactions (generous under concurrent tests). */
export const TX_OPTIONS = { maxWait: 10_000, timeout: 15_000 } as const;
