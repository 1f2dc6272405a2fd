// Embedded checkout client secrets: `pcs_` + 40 random base62 characters (~238 bits), returned
// once at creation and stored only as a SHA-256 hash (the lookup key of the embedded page).
import { createHash } from 'node:crypto';
import { randomToken } from '../../ids';

export const CLIENT_SECRET_PREFIX = 'pcs_';
const SECRET_PATTERN = /^pcs_[0-9A-Za-z]{40}$/;

export function newClientSecret(): { secret: string; hash: string } {
  const secret = `${CLIENT_SECRET_PREFIX}${randomToken(40)}`;
  return { secret, hash: hashClientSecret(secret) };
}

export function hashClientSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Cheap shape check before any database lookup. */
export function looksLikeClientSecret(value: unknown): value is string {
  return typeof value === 'string' && SECRET_PATTERN.test(value);
}
