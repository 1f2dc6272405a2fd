// Creates a payment in `requires_payment_method` with its invoice (open, numbered, one line).
// The charge happens later: confirmCardPayment (POST /v1/payments with a payment method, or
// checkout). Runs inside the caller's transaction; the caller dispatches `events` after commit.
import type { Tenant, TenantDb } from '../../db/tenancy';
import type { Invoice, Payment } from '../../generated/prisma/client';
import { errors } from '../../errors';
import { newId } from '../../ids';
import { datingEventsAt, recordEvent, type RecordedEvent } from '../../events';
import { customerClockTime } from '../test-clocks/customer-clock-time';
import { createPaymentInvoice } from '../invoices/payment-invoice';
import { presentInvoice } from '../../objects/invoices';
import { checkAmount, checkCurrency, checkMetadata, checkText, DESCRIPTION_MAX, EXTERNAL_REFERENCE_MAX } from '../checks/payment-fields';

/** An outbox event recorded in the transaction (src/events); dispatch it after commit. */
export type Event = RecordedEvent;

export interface CreatePaymentInput {
  amount: number;
  currency: string;
  description?: string | null;
  customerId?: string | null;
  externalReference?: string | null;
  metadata?: Record<string, string>;
  /** Default: now. A test-clock customer's payment is always made at its clock's time. */
  now?: Date;
  /** Default: a new random id (POST /v1/payments derives it from the Idempotency-Key: payment-id.ts). */
  paymentId?: string;
}

export async function createPayment(db: TenantDb, tenant: Tenant, input: CreatePaymentInput): Promise<{ payment: Payment; invoice: Invoice; events: Event[] }> {
  checkAmount(input.amount);
  checkCurrency(input.currency);
  checkText(input.description, DESCRIPTION_MAX, 'description');
  checkText(input.externalReference, EXTERNAL_REFERENCE_MAX, 'external_reference');
  const metadata = checkMetadata(input.metadata);
  if (input.customerId) {
    const customer = await db.customer.findFirst({ where: { id: input.customerId }, select: { id: true } });
    if (!customer) throw errors.resourceNotFound(`No such customer: '${input.customerId}'`, 'customer');
  }
  // A test-clock customer's payment, its invoice, its ledger posting and its event are dated at
  // the clock's time (docs/test-clocks.md "Timestamps").
  const clockTime = await customerClockTime(db, input.customerId ?? null);
  const now = clockTime ?? input.now ?? new Date();
  const id = input.paymentId ?? newId('payment');
  if (input.paymentId && (await db.payment.findFirst({ where: { id }, select: { id: true } }))) {
    throw errors.resourceConflict('A payment was already created with this Idempotency-Key; use a new key for a new payment', 'Idempotency-Key');
  }
  const payment = await db.payment.create({
    data: {
      id,
      merchantId: tenant.merchantId,
      mode: tenant.mode,
      customerId: input.customerId ?? null,
      amount: BigInt(input.amount),
      currency: input.currency,
      description: input.description ?? null,
      status: 'requires_payment_method',
      externalReference: input.externalReference ?? null,
      metadata,
      createdAt: now,
    },
  });
  const { invoice, lines } = await createPaymentInvoice(db, tenant, payment, now);
  const record = () => recordEvent(db, tenant, { type: 'invoice.finalized', data: presentInvoice(invoice, lines) });
  const events = [clockTime ? await datingEventsAt(clockTime, record) : await record()];
  return { payment, invoice, events };
}
