// Bearer secrets of the portal: the token in a portal link's URL and the value of a portal
// session cookie. 32 base62 characters from the CSPRNG (~190 bits, above the 128 asked for);
// only their SHA-256 is stored, looked up by that hash (an index on a hash leaks nothing about
// the token) and compared once more in constant time. Tokens never appear in logs: the access
// log prints only the route's pattern for portal paths (api/portal/router.ts).
import { createHash, timingSafeEqual } from 'node:crypto';
import { randomToken } from '../../ids';

export const LINK_TOKEN_PREFIX = 'cpt_';
export const SESSION_TOKEN_PREFIX = 'cps_';
const TOKEN_BODY = /^[0-9A-Za-z]{32}$/;

export function newLinkToken(): string {
  return `${LINK_TOKEN_PREFIX}${randomToken(32)}`;
}

export function newSessionToken(): string {
  return `${SESSION_TOKEN_PREFIX}${randomToken(32)}`;
}

/** A CSRF token for a portal session (kept in the session row, sent back by the page). */
export function newCsrfToken(): string {
  return randomToken(32);
}

/** Whether a string has the shape of a token of this prefix (anything else is not looked up). */
export function isTokenShaped(value: string, prefix: string): boolean {
  return value.startsWith(prefix) && TOKEN_BODY.test(value.slice(prefix.length));
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Constant-time equality of two strings (hex digests or CSRF tokens). */
export function secretsEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}
