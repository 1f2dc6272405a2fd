// Expiry of a payment session (the `payment-session/<ps_id>` workflow's activity). One
// transaction, idempotent, safe against a completion racing the timer:
//  - the session row is locked (FOR UPDATE; checkout completion locks it too, in the same order:
//    session, then payment), re-read and changed only while it is still `open` and due;
//  - its payment is canceled (and the payment's invoice voided) only while unpaid and no other
//    session of the same payment is still open and not yet due: the customer may be paying there;
//  - a repeat finds the session `expired` or `complete` and changes nothing.
import type { Db } from '../../db/client';
import { scopedDb, type ScopedTx, type Tenant } from '../../db/tenancy';
import { cancelPayment } from '../payments/cancel-payment';
import type { ExpirePaymentSessionInput, ExpirePaymentSessionResult } from '../../contracts/payment-sessions';
import type { Event } from '../payments/create-payment';

/** The worker's and the API's clocks may differ a little: expire when due within this margin. */
export const EXPIRY_CLOCK_TOLERANCE_MS = 1000;

export async function lockPaymentSession(tx: ScopedTx, tenant: Tenant, id: string): Promise<boolean> {
  const rows = await tx.$queryRaw<Array<{ id: string }>>`
    SELECT id FROM payment_sessions
    WHERE id = ${id} AND merchant_id = ${tenant.merchantId} AND mode = ${tenant.mode}::"Mode"
    FOR UPDATE`;
  return rows.length === 1;
}

/**
 * Returns the outcome and the events it recorded (payment.canceled, invoice.voided) for the
 * caller to dispatch after commit; the reconciler would otherwise deliver them a minute later.
 */
export async function expirePaymentSessionWithEvents(
  db: Db,
  input: ExpirePaymentSessionInput,
  now: Date = new Date(),
): Promise<{ result: ExpirePaymentSessionResult; events: Event[] }> {
  const none = (result: ExpirePaymentSessionResult) => ({ result, events: [] as Event[] });
  const tenant: Tenant = { merchantId: input.merchantId, mode: input.mode };
  return scopedDb(db, tenant).$transaction(async (tx) => {
    if (!(await lockPaymentSession(tx, tenant, input.sessionId))) return none({ outcome: 'missing' });
    const session = await tx.paymentSession.findFirst({ where: { id: input.sessionId } });
    if (!session) return none({ outcome: 'missing' });
    if (session.status === 'complete') return none({ outcome: 'complete' });
    if (session.status === 'expired') return none({ outcome: 'expired', paymentCanceled: false });
    const remaining = session.expiresAt.getTime() - now.getTime();
    if (remaining > EXPIRY_CLOCK_TOLERANCE_MS) return none({ outcome: 'not_due', waitMs: remaining });

    await tx.paymentSession.update({ where: { id: session.id }, data: { status: 'expired', expiredAt: now } });
    const payment = await tx.payment.findFirst({ where: { id: session.paymentId }, select: { status: true } });
    if (!payment || (payment.status !== 'requires_payment_method' && payment.status !== 'failed')) {
      return none({ outcome: 'expired', paymentCanceled: false });
    }
    const stillOpen = await tx.paymentSession.count({
      where: { paymentId: session.paymentId, status: 'open', id: { not: session.id }, expiresAt: { gt: now } },
    });
    if (stillOpen > 0) return none({ outcome: 'expired', paymentCanceled: false });
    const canceled = await cancelPayment(tx, tenant, { paymentId: session.paymentId, now, param: 'payment' });
    return { result: { outcome: 'expired', paymentCanceled: true } as ExpirePaymentSessionResult, events: canceled.events };
  });
}
