// Reading payment sessions: through the tenant-scoped client for the API, and by id or client
// secret (no API key) for the checkout pages, which then work in the session's own tenant.
import type { Db } from '../../db/client';
import type { Tenant, TenantDb } from '../../db/tenancy';
import type { Payment, PaymentSession } from '../../generated/prisma/client';
import { errors } from '../../errors';
import { hashClientSecret, looksLikeClientSecret } from './client-secret';

export type SessionWithPayment = PaymentSession & { payment: Payment };

export async function getPaymentSession(db: TenantDb, id: string): Promise<SessionWithPayment> {
  const s = await db.paymentSession.findFirst({ where: { id }, include: { payment: true } });
  if (!s) throw errors.resourceMissing(`No such payment session: '${id}'`, 'id');
  return s;
}

export function tenantOfSession(s: Pick<PaymentSession, 'merchantId' | 'mode'>): Tenant {
  return { merchantId: s.merchantId, mode: s.mode };
}

/** Checkout pages: a session by its id (the hosted URL), with its merchant's display name. */
export async function findCheckoutSessionById(db: Db, id: string): Promise<(SessionWithPayment & { merchantName: string }) | null> {
  if (!/^ps_[0-9A-Za-z]{1,60}$/.test(id)) return null;
  const s = await db.paymentSession.findUnique({ where: { id }, include: { payment: true } });
  if (!s) return null;
  const m = await db.merchant.findUnique({ where: { id: s.merchantId }, select: { name: true } });
  return { ...s, merchantName: m?.name ?? '' };
}

/** Embedded checkout: a session by its client secret (compared by hash). */
export async function findCheckoutSessionBySecret(db: Db, secret: unknown): Promise<(SessionWithPayment & { merchantName: string }) | null> {
  if (!looksLikeClientSecret(secret)) return null;
  const s = await db.paymentSession.findUnique({ where: { clientSecretHash: hashClientSecret(secret) }, include: { payment: true } });
  if (!s || s.uiMode !== 'embedded') return null;
  const m = await db.merchant.findUnique({ where: { id: s.merchantId }, select: { name: true } });
  return { ...s, merchantName: m?.name ?? '' };
}
