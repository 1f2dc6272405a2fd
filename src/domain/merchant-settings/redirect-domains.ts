// The merchant's redirect domains: hosted-checkout return/cancel URLs must be on one of them (or
// a subdomain) when the list is not empty (payment-sessions/redirects.ts). Set by the dashboard,
// PUT /v1/redirect_domains (dashboard session) and `billing redirect-domains`.
import type { Db } from '../../db/client';
import { errors } from '../../errors';
import { notifyMerchantChanged } from '../api-keys/invalidation';

export const MAX_REDIRECT_DOMAINS = 50;

export function normaliseRedirectDomain(raw: string, param = 'domains'): string {
  const d = raw.trim().toLowerCase().replace(/\.$/, '');
  if (!/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/.test(d) && d !== 'localhost') {
    throw errors.validationFailed(`not a domain name: ${raw.slice(0, 100)} (expected e.g. shop.example.is)`, param);
  }
  return d;
}

export function parseDomainList(raw: unknown, param = 'domains'): string[] {
  if (!Array.isArray(raw)) throw errors.validationFailed(`${param} must be an array of domain names`, param);
  if (raw.length > MAX_REDIRECT_DOMAINS) throw errors.validationFailed(`at most ${MAX_REDIRECT_DOMAINS} domains`, param);
  return [
    ...new Set(
      raw.map((v) => {
        if (typeof v !== 'string') throw errors.validationFailed(`${param} must be an array of domain names`, param);
        return normaliseRedirectDomain(v, param);
      }),
    ),
  ];
}

export async function setRedirectDomains(db: Pick<Db, 'merchant' | '$executeRaw'>, merchantId: string, domains: unknown): Promise<string[]> {
  const list = parseDomainList(domains);
  const m = await db.merchant.update({ where: { id: merchantId }, data: { redirectDomains: list } });
  await notifyMerchantChanged(db, merchantId);
  return m.redirectDomains;
}
