// Object ids: `<prefix>_` + 10 base62 characters of creation time (ms) + 14 random base62
// characters. Time-prefixed ids sort roughly by creation, which keeps index inserts local;
// ordering guarantees still come from (created_at, id), never from the id alone.
import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export const ID_PREFIXES = {
  merchant: 'merch',
  apiKey: 'key',
  customer: 'cus',
  product: 'prod',
  price: 'price',
  meter: 'mtr',
  usageEvent: 'ue',
  subscription: 'sub',
  subscriptionItem: 'si',
  invoice: 'inv',
  invoiceLine: 'ili',
  invoiceItem: 'ii',
  creditNote: 'cn',
  payment: 'pay',
  paymentSession: 'ps',
  paymentMethod: 'pm',
  refund: 'ref',
  event: 'evt',
  webhookEndpoint: 'we',
  webhookDelivery: 'del',
  customerPortal: 'cprt',
  portalSession: 'cpses',
  accountingLink: 'al',
  ledgerEntry: 'be',
  ledgerPosting: 'bp',
  accountingSyncRecord: 'asr',
  testClock: 'clock',
  workflowRecovery: 'wfr',
  dashboardUser: 'du',
  dashboardInvitation: 'dinv',
  dashboardAuditEntry: 'aud',
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

function base62(bytes: Buffer, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += ALPHABET[bytes[i]! % 62];
  return out;
}

function timePart(ms: number): string {
  let n = ms;
  let out = '';
  for (let i = 0; i < 10; i++) {
    out = ALPHABET[n % 62] + out;
    n = Math.floor(n / 62);
  }
  return out;
}

export function newId(kind: IdKind, nowMs: number = Date.now()): string {
  // Rejection-free: 256 % 62 bias is negligible for identifiers (not secrets).
  return `${ID_PREFIXES[kind]}_${timePart(nowMs)}${base62(randomBytes(14), 14)}`;
}

/** A random secret token in base62 with ~ 6 bits per character. Uses rejection sampling (no bias). */
export function randomToken(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const b of randomBytes(length * 2)) {
      if (b < 248) out += ALPHABET[b % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

export function hasPrefix(id: string, kind: IdKind): boolean {
  return id.startsWith(`${ID_PREFIXES[kind]}_`);
}
