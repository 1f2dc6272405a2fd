// API key material: `sk_test_…`, `sk_live_…`, `pk_test_…`, `pk_live_…` followed by 32 base62
// characters (~190 bits). Only the SHA-256 hash and the last four characters are stored; a key
// this random needs no slow hash, and the hash is what the lookup index is built on.
import { createHash, timingSafeEqual } from 'node:crypto';
import { randomToken } from '../../ids';

export type KeyType = 'secret' | 'publishable';
export type KeyMode = 'test' | 'live';

export const KEY_PATTERN = /^(sk|pk)_(test|live)_[0-9A-Za-z]{32}$/;

export function generateKey(type: KeyType, mode: KeyMode): { key: string; hash: string; last4: string } {
  const key = `${type === 'secret' ? 'sk' : 'pk'}_${mode}_${randomToken(32)}`;
  return { key, hash: hashKey(key), last4: key.slice(-4) };
}

export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function parseKey(key: string): { type: KeyType; mode: KeyMode } | null {
  const m = KEY_PATTERN.exec(key);
  if (!m) return null;
  return { type: m[1] === 'sk' ? 'secret' : 'publishable', mode: m[2] as KeyMode };
}

/** Constant-time comparison of two hex digests. */
export function hashesEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}
