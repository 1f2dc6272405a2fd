// The two steps of the refund workflow (workflows/refund.ts), each idempotent:
//  1. refundAtAcquirer: asks the acquirer to refund, with idempotency key = the refund id, so
//     any number of retries refunds once. A refund that is no longer pending is not sent again.
//  2. recordRefundOutcome: in one transaction, moves the refund from `pending` to `succeeded`
//     or `failed` (a conditional update: a repeated run finds it done and records nothing), and
//     on success recomputes the payment's refunded total and status (`partially_refunded`, or
//     `refunded` when the total equals the charge) and issues a credit note when the payment's
//     invoice is paid. Events are recorded in that transaction and dispatched after it.
import type { Db } from '../../db/client';
import { scopedDb, type Tenant } from '../../db/tenancy';
import type { CardAcquirer } from '../../gateways';
import { errors } from '../../errors';
import { datingEventsAt, recordEvent, type RecordedEvent } from '../../events';
import { customerClockTime } from '../test-clocks/customer-clock-time';
import type { AcquirerRefundAnswer, RecordRefundOutcomeInput, RefundOutcome } from '../../contracts/payments';
import { lockPayment } from '../payments/lock-payment';
import { presentRefund } from '../../objects/refunds';
import { presentCreditNote } from '../../objects/credit-notes';
import { issueCreditNote } from '../credit-notes/issue-credit-note';

export async function refundAtAcquirer(deps: { db: Db; acquirer: CardAcquirer }, tenant: Tenant, refundId: string): Promise<AcquirerRefundAnswer> {
  const db = scopedDb(deps.db, tenant);
  const refund = await db.refund.findFirst({ where: { id: refundId }, include: { payment: { select: { acquirerChargeId: true } } } });
  if (!refund) throw new Error(`refund ${refundId} not found in ${tenant.merchantId}/${tenant.mode}`);
  if (refund.status !== 'pending') return { status: 'not_pending', current: refund.status };
  const chargeId = refund.payment.acquirerChargeId;
  if (!chargeId) return { status: 'failed', acquirerRefundId: null, code: 'charge_not_refundable', message: 'The payment has no charge to refund.' };
  const answer = await deps.acquirer.refund({ merchantId: tenant.merchantId, chargeId, amount: Number(refund.amount), idempotencyKey: refund.id });
  if (answer.status === 'succeeded') return { status: 'succeeded', acquirerRefundId: answer.refundId };
  return { status: 'failed', acquirerRefundId: answer.refundId, code: answer.code, message: answer.message };
}

export async function recordRefundOutcome(deps: { db: Db }, tenant: Tenant, input: RecordRefundOutcomeInput): Promise<{ status: RefundOutcome; events: RecordedEvent[] }> {
  const scoped = scopedDb(deps.db, tenant);
  // A test-clock customer's refund completes at the clock's time (docs/test-clocks.md "Timestamps").
  const refundRow = await scoped.refund.findFirst({ where: { id: input.refundId }, select: { payment: { select: { customerId: true } } } });
  const clockTime = await customerClockTime(scoped, refundRow?.payment.customerId ?? null);
  const inTx = () =>
    scoped.$transaction(async (tx) => {
      const existing = await tx.refund.findFirst({ where: { id: input.refundId } });
      if (!existing) throw errors.resourceMissing(`No such refund: '${input.refundId}'`, 'id');
      // Refunds of one payment record their outcomes one at a time (the payment's total).
      const payment = await lockPayment(tx, tenant, existing.paymentId);
      if (!payment) throw new Error(`payment ${existing.paymentId} of refund ${existing.id} is missing`);
      const now = clockTime ?? new Date();
      const { answer } = input;
      const moved = await tx.refund.updateMany({
        where: { id: existing.id, status: 'pending' },
        data:
          answer.status === 'succeeded'
            ? { status: 'succeeded', acquirerRefundId: answer.acquirerRefundId, succeededAt: now }
            : { status: 'failed', acquirerRefundId: answer.acquirerRefundId, failureCode: answer.code, failureMessage: answer.message, failedAt: now },
      });
      if (moved.count === 0) {
        // Recorded by an earlier run: nothing to do, nothing to announce again.
        return { status: existing.status === 'succeeded' ? ('succeeded' as const) : ('failed' as const), events: [] };
      }
      const refund = await tx.refund.findFirstOrThrow({ where: { id: existing.id } });
      if (answer.status === 'failed') {
        return { status: 'failed' as const, events: [await recordEvent(tx, tenant, { type: 'refund.failed', data: presentRefund(refund) })] };
      }
      const refunded = await tx.refund.aggregate({ _sum: { amount: true }, where: { paymentId: payment.id, status: 'succeeded' } });
      const total = refunded._sum.amount ?? 0n;
      await tx.payment.update({
        where: { id: payment.id },
        data: { amountRefunded: total, status: total >= payment.amount ? 'refunded' : 'partially_refunded' },
      });
      const events = [await recordEvent(tx, tenant, { type: 'refund.succeeded', data: presentRefund(refund) })];
      // The payment's own invoice, or the subscription invoice it paid.
      const invoice = await tx.invoice.findFirst({ where: { OR: [{ paymentKey: payment.id }, { paymentId: payment.id, status: 'paid' }] }, orderBy: { createdAt: 'asc' } });
      if (invoice && invoice.status === 'paid') {
        const creditNote = await issueCreditNote(tx, tenant, invoice, refund, now);
        events.push(await recordEvent(tx, tenant, { type: 'credit_note.created', data: presentCreditNote(creditNote) }));
      }
      return { status: 'succeeded' as const, events };
    });
  return clockTime ? datingEventsAt(clockTime, inTx) : inTx();
}
