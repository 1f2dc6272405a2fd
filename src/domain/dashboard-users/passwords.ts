// Dashboard passwords: Node's scrypt (memory-hard, slow on purpose), never a fast hash.
// Stored as `scrypt$N$r$p$salt$hash` (salt and hash base64url), so the cost can be raised later
// without breaking stored hashes: verification reads the parameters from the stored value.
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { errors } from '../../errors';
import { codePointLength } from '../../validation/text';

/** 2^15 iterations, block size 8: ~32 MiB and tens of milliseconds per hash. */
export const SCRYPT_COST = { N: 32768, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;
export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 200;

function derive(password: string, salt: Buffer, cost: { N: number; r: number; p: number }): Promise<Buffer> {
  const options: ScryptOptions = { ...cost, maxmem: 128 * cost.N * cost.r * 2 };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, options, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

/** The rule for a new password (creation, invitation, change): length only, as current guidance says. */
export function checkNewPassword(password: unknown, param = 'password'): string {
  if (typeof password !== 'string') throw errors.validationFailed('password must be a string', param);
  const length = codePointLength(password);
  if (length < PASSWORD_MIN_LENGTH) throw errors.validationFailed(`password must be at least ${PASSWORD_MIN_LENGTH} characters`, param);
  if (length > PASSWORD_MAX_LENGTH) throw errors.validationFailed(`password must be at most ${PASSWORD_MAX_LENGTH} characters`, param);
  return password;
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, SCRYPT_COST);
  return `scrypt$${SCRYPT_COST.N}$${SCRYPT_COST.r}$${SCRYPT_COST.p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  if (![N, r, p].every((n) => Number.isInteger(n) && n > 0) || N > 1 << 20) return false;
  const expected = Buffer.from(parts[5]!, 'base64url');
  const actual = await derive(password, Buffer.from(parts[4]!, 'base64url'), { N, r, p });
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/** A hash of nothing, compared against when the e-mail is unknown, so timing does not tell. */
let dummy: Promise<string> | undefined;
export function dummyPasswordHash(): Promise<string> {
  dummy ??= hashPassword(randomBytes(16).toString('hex'));
  return dummy;
}
