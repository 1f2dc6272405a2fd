// Secrets at rest (accounting credentials and tokens, webhook signing secrets): AES-256-GCM with
// the service's encryption key from the environment (ACCOUNTING_ENCRYPTION_KEY, 32 bytes as
// base64 or hex; the name is historical), a random 12-byte nonce per value, and the owner of the
// value (the link's merchant and mode, the endpoint's id) as associated data so a value copied to
// another row does not decrypt. Stored as `v1.<nonce>.<ciphertext>.<tag>` (base64url). Never
// logged, never returned.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

export class EncryptionKeyMissing extends Error {
  constructor() {
    super('ACCOUNTING_ENCRYPTION_KEY is not set: encrypted secrets (accounting credentials, webhook signing secrets) cannot be stored or read');
    this.name = 'EncryptionKeyMissing';
  }
}

export function parseEncryptionKey(raw: string | undefined): Buffer {
  if (!raw) throw new EncryptionKeyMissing();
  const trimmed = raw.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(trimmed) ? Buffer.from(trimmed, 'hex') : Buffer.from(trimmed, 'base64');
  if (key.length !== 32) throw new Error('ACCOUNTING_ENCRYPTION_KEY must be 32 bytes, as 64 hex characters or base64');
  return key;
}

export function newEncryptionKey(): string {
  return randomBytes(32).toString('base64');
}

export function seal(key: Buffer, plaintext: string, associated: string): string {
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  cipher.setAAD(Buffer.from(associated, 'utf8'));
  const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v1', nonce.toString('base64url'), ct.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
}

/** True when `value` has the sealed format (it may still fail to open under another key). */
export function isSealed(value: string): boolean {
  return /^v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+$/.test(value);
}

export function open(key: Buffer, sealed: string, associated: string): string {
  const [v, nonce, ct, tag] = sealed.split('.');
  if (v !== 'v1' || !nonce || ct === undefined || !tag) throw new Error('sealed value has an unknown format');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(nonce, 'base64url'));
  decipher.setAAD(Buffer.from(associated, 'utf8'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8');
}
