// The id of a payment created by a request that carries an Idempotency-Key is derived from the
// tenant and the key. A request that charged a card and then rolled back (a timeout after the
// acquirer answered, a crash) is retried with the same key: it makes the payment with the SAME
// id, so its charge asks the acquirer under the same key (`${paymentId}:attempt:1`) and gets
// the original answer instead of charging again. Without a key the id is random.
import { createHash } from 'node:crypto';
import type { Tenant } from '../../db/tenancy';
import { ID_PREFIXES, newId } from '../../ids';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export function paymentIdFor(tenant: Tenant, idempotencyKey: string | null | undefined): string {
  if (!idempotencyKey) return newId('payment');
  const digest = createHash('sha256').update(`${tenant.merchantId}\u0000${tenant.mode}\u0000POST /v1/payments\u0000${idempotencyKey}`).digest();
  let out = '';
  for (let i = 0; i < 24; i++) out += ALPHABET[digest[i]! % 62];
  return `${ID_PREFIXES.payment}_${out}`;
}
