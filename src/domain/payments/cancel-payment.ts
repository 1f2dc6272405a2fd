// Cancels a payment that was never paid (requires_payment_method or failed): payment
// `canceled`, its invoice `void`. Used by POST /v1/payments/{id}/cancel and by checkout when a
// payment session expires. Repeating it on a canceled payment returns it unchanged (a retried
// activity); any other state answers invalid_state. Runs inside the caller's transaction.
import type { Tenant, TenantDb } from '../../db/tenancy';
import type { Invoice, Payment } from '../../generated/prisma/client';
import { errors } from '../../errors';
import { lockPayment } from './lock-payment';
import type { Event } from './create-payment';
import { datingEventsAt, recordEvent } from '../../events';
import { customerClockTime } from '../test-clocks/customer-clock-time';
import { presentPayment } from '../../objects/payments';
import { recordInvoiceVoided } from '../invoices/invoice-voided-event';
import { postInvoiceVoided } from '../ledger/invoice-postings';

export async function cancelPayment(
  db: TenantDb,
  tenant: Tenant,
  input: { paymentId: string; now: Date; param?: string },
): Promise<{ payment: Payment; invoice: Invoice | null; events: Event[] }> {
  const payment = await lockPayment(db, tenant, input.paymentId);
  if (!payment) throw errors.resourceMissing(`No such payment: '${input.paymentId}'`, input.param ?? 'id');
  const invoice = await db.invoice.findFirst({ where: { paymentKey: payment.id } });
  if (payment.status === 'canceled') return { payment, invoice, events: [] };
  if (payment.status !== 'requires_payment_method' && payment.status !== 'failed') {
    throw errors.invalidState(`The payment is ${payment.status}; only a payment that requires a payment method or has failed can be canceled`, input.param ?? 'id');
  }
  // A test-clock customer's payment is canceled (and its invoice voided) at the clock's time.
  const clockTime = await customerClockTime(db, payment.customerId);
  const now = clockTime ?? input.now;
  const cancel = async () => {
    const updated = await db.payment.update({ where: { id: payment.id }, data: { status: 'canceled', canceledAt: now } });
    const events: Event[] = [await recordEvent(db, tenant, { type: 'payment.canceled', data: presentPayment(updated, invoice?.id ?? null) })];
    let voided = invoice;
    if (invoice && invoice.status === 'open') {
      voided = await db.invoice.update({ where: { id: invoice.id }, data: { status: 'void', voidedAt: now } });
      await postInvoiceVoided(db, tenant, invoice, now);
      events.push(await recordInvoiceVoided(db, tenant, voided));
    }
    return { payment: updated, invoice: voided, events };
  };
  return clockTime ? datingEventsAt(clockTime, cancel) : cancel();
}
