// POST /v1/payments: creates the payment and its invoice and, with a saved payment method and
// `confirm` (default true when a method is given), charges it at once (confirmCardPayment). A
// decline is not an error: the payment comes back `failed` with failure_code/failure_message.
import type { Db } from '../../db/client';
import type { Tenant, TenantDb } from '../../db/tenancy';
import type { Payment } from '../../generated/prisma/client';
import { errors } from '../../errors';
import { cardAcquirerFor } from './acquirer';
import { createPayment, type Event } from './create-payment';
import { confirmCardPayment } from './confirm-card-payment';
import { paymentInvoiceIds } from '../invoices/payment-invoice';
import { paymentIdFor } from './payment-id';

export interface SubmitPaymentInput {
  amount: number;
  /** Default: the merchant's default currency. */
  currency?: string | null;
  description?: string | null;
  customerId?: string | null;
  paymentMethodId?: string | null;
  confirm?: boolean | null;
  externalReference?: string | null;
  metadata?: Record<string, string> | null;
  /** The request's Idempotency-Key: the payment id is derived from it (payment-id.ts). */
  idempotencyKey?: string | null;
}

export async function submitPayment(
  deps: { db: TenantDb; rootDb: Db; now: Date },
  tenant: Tenant,
  input: SubmitPaymentInput,
): Promise<{ payment: Payment; invoiceId: string; events: Event[] }> {
  const { db } = deps;
  const confirm = input.confirm ?? Boolean(input.paymentMethodId);
  if (confirm && !input.paymentMethodId) throw errors.validationFailed('confirm requires payment_method', 'confirm');

  let customerId = input.customerId ?? null;
  if (input.paymentMethodId) {
    const pm = await db.paymentMethod.findFirst({ where: { id: input.paymentMethodId, detachedAt: null }, select: { id: true, customerId: true } });
    if (!pm || (customerId !== null && pm.customerId !== customerId)) {
      throw errors.resourceNotFound(`No such payment method${customerId ? ` of customer '${customerId}'` : ''}: '${input.paymentMethodId}'`, 'payment_method');
    }
    customerId = pm.customerId;
  }
  let currency = input.currency ? input.currency.toUpperCase() : null;
  if (!currency) {
    const merchant = await deps.rootDb.merchant.findUnique({ where: { id: tenant.merchantId }, select: { defaultCurrency: true } });
    currency = merchant?.defaultCurrency ?? 'ISK';
  }
  const created = await createPayment(db, tenant, {
    amount: input.amount,
    currency,
    description: input.description ?? null,
    customerId,
    externalReference: input.externalReference ?? null,
    metadata: input.metadata ?? {},
    now: deps.now,
    paymentId: paymentIdFor(tenant, input.idempotencyKey),
  });
  if (!confirm || !input.paymentMethodId) {
    if (input.paymentMethodId) {
      // Remembered for a later POST /v1/payments/{id}/confirm without a body.
      const payment = await db.payment.update({ where: { id: created.payment.id }, data: { paymentMethodId: input.paymentMethodId } });
      return { payment, invoiceId: created.invoice.id, events: created.events };
    }
    return { payment: created.payment, invoiceId: created.invoice.id, events: created.events };
  }
  const confirmed = await confirmCardPayment(
    { db, acquirer: cardAcquirerFor(deps.rootDb, tenant.mode), now: deps.now },
    tenant,
    { paymentId: created.payment.id, source: { paymentMethodId: input.paymentMethodId } },
  );
  return { payment: confirmed.payment, invoiceId: created.invoice.id, events: [...created.events, ...confirmed.events] };
}

/** POST /v1/payments/{id}/confirm: charges with the given saved method or the one remembered at creation. */
export async function confirmPaymentWithMethod(
  deps: { db: TenantDb; rootDb: Db; now: Date },
  tenant: Tenant,
  input: { paymentId: string; paymentMethodId?: string | null },
): Promise<{ payment: Payment; invoiceId: string | null; events: Event[] }> {
  const existing = await deps.db.payment.findFirst({ where: { id: input.paymentId }, select: { id: true, paymentMethodId: true } });
  if (!existing) throw errors.resourceMissing(`No such payment: '${input.paymentId}'`, 'id');
  const paymentMethodId = input.paymentMethodId ?? existing.paymentMethodId;
  if (!paymentMethodId) throw errors.validationFailed('payment_method is required: the payment has none', 'payment_method');
  const confirmed = await confirmCardPayment(
    { db: deps.db, acquirer: cardAcquirerFor(deps.rootDb, tenant.mode), now: deps.now },
    tenant,
    { paymentId: existing.id, source: { paymentMethodId } },
  );
  const invoiceIds = await paymentInvoiceIds(deps.db, [existing.id]);
  return { payment: confirmed.payment, invoiceId: invoiceIds.get(existing.id) ?? null, events: confirmed.events };
}
