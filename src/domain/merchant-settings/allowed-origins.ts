// Origins allowed to create embedded payment sessions with a publishable key. Set by the
// dashboard, PUT /v1/allowed_origins (dashboard session) and `billing origins`.
import type { Db } from '../../db/client';
import { errors } from '../../errors';
import { notifyMerchantChanged } from '../api-keys/invalidation';

export const MAX_ALLOWED_ORIGINS = 50;

export function normaliseAllowedOrigin(raw: string, param = 'origins'): string {
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    throw errors.validationFailed(`not an origin: ${raw.slice(0, 100)} (expected e.g. https://shop.example.is)`, param);
  }
  if (!['https:', 'http:'].includes(u.protocol) || u.pathname !== '/' || u.search || u.hash || u.username || u.password) {
    throw errors.validationFailed(`not an origin: ${raw.slice(0, 100)} (scheme, host and optional port only)`, param);
  }
  return u.origin;
}

export function parseOriginList(raw: unknown, param = 'origins'): string[] {
  if (!Array.isArray(raw)) throw errors.validationFailed(`${param} must be an array of origins`, param);
  if (raw.length > MAX_ALLOWED_ORIGINS) throw errors.validationFailed(`at most ${MAX_ALLOWED_ORIGINS} origins`, param);
  return [
    ...new Set(
      raw.map((v) => {
        if (typeof v !== 'string') throw errors.validationFailed(`${param} must be an array of origins`, param);
        return normaliseAllowedOrigin(v, param);
      }),
    ),
  ];
}

export async function setAllowedOrigins(db: Pick<Db, 'merchant' | '$executeRaw'>, merchantId: string, origins: unknown): Promise<string[]> {
  const list = parseOriginList(origins);
  const m = await db.merchant.update({ where: { id: merchantId }, data: { allowedOrigins: list } });
  await notifyMerchantChanged(db, merchantId);
  return m.allowedOrigins;
}
