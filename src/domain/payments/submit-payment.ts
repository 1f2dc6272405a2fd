// POST /v1/payments: creates the payment and its invoice and, with a saved payment method and
// `confirm` (default true when a method is given), charges it at once (confirmCardPayment: the
// payment is created and its attempt recorded in one transaction, the acquirer is asked with no
// transaction open, the outcome is written in a second one). A decline is not an error: the
// payment comes back `failed` with failure_code/failure_message.
import { scopedDb, type Tenant, type TenantDb } from '../../db/tenancy';
import type { Payment } from '../../generated/prisma/client';
import { errors } from '../../errors';
import type { ModeGateways } from '../../gateways';
import { createPayment, type Event } from './create-payment';
import { confirmCardPayment, type ConfirmDeps } from './confirm-card-payment';
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

/** The root client (this use case runs its own transactions; none may be open) and the gateways. */
export interface PaymentCommandDeps extends ConfirmDeps {
  gateways: ModeGateways;
}

export async function submitPayment(deps: PaymentCommandDeps, tenant: Tenant, input: SubmitPaymentInput): Promise<{ payment: Payment; invoiceId: string; events: Event[] }> {
  const confirm = input.confirm ?? Boolean(input.paymentMethodId);
  if (confirm && !input.paymentMethodId) throw errors.validationFailed('confirm requires payment_method', 'confirm');
  const paymentId = paymentIdFor(tenant, input.idempotencyKey);
  if (input.idempotencyKey && confirm) {
    // The same Idempotency-Key again after its first request created the payment and recorded its
    // attempt but stored no response (a 503 while the acquirer did not answer, a crash): carry on
    // with that attempt. Any other existing payment is a key reused after the retention: 409.
    const existing = await scopedDb(deps.db, tenant).payment.findFirst({ where: { id: paymentId } });
    if (existing?.status === 'processing') return continueSubmitted(deps, tenant, existing, input.paymentMethodId!);
  }
  const create = async (db: TenantDb) => {
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
      const merchant = await deps.db.merchant.findUnique({ where: { id: tenant.merchantId }, select: { defaultCurrency: true } });
      currency = merchant?.defaultCurrency ?? 'ISK';
    }
    return createPayment(db, tenant, {
      amount: input.amount,
      currency,
      description: input.description ?? null,
      customerId,
      externalReference: input.externalReference ?? null,
      metadata: input.metadata ?? {},
      now: deps.now,
      paymentId,
    });
  };
  if (!confirm || !input.paymentMethodId) {
    const paymentMethodId = input.paymentMethodId;
    return scopedDb(deps.db, tenant).$transaction(
      async (db) => {
        const created = await create(db);
        if (paymentMethodId) {
          // Remembered for a later POST /v1/payments/{id}/confirm without a body.
          const payment = await db.payment.update({ where: { id: created.payment.id }, data: { paymentMethodId } });
          return { payment, invoiceId: created.invoice.id, events: created.events };
        }
        return { payment: created.payment, invoiceId: created.invoice.id, events: created.events };
      },
      { maxWait: deps.txMaxWaitMs ?? 5_000, timeout: 15_000 },
    );
  }
  const paymentMethodId = input.paymentMethodId;
  const confirmed = await confirmCardPayment({ ...deps, acquirer: deps.gateways.cardAcquirer(tenant.mode) }, tenant, async (db) => {
    const created = await create(db);
    return { paymentId: created.payment.id, source: { paymentMethodId }, before: created };
  });
  const created = confirmed.before!;
  return { payment: confirmed.payment, invoiceId: created.invoice.id, events: [...created.events, ...confirmed.events] };
}

async function continueSubmitted(deps: PaymentCommandDeps, tenant: Tenant, existing: Payment, paymentMethodId: string) {
  const invoiceId = (await paymentInvoiceIds(scopedDb(deps.db, tenant), [existing.id])).get(existing.id)!;
  const confirmed = await confirmCardPayment({ ...deps, acquirer: deps.gateways.cardAcquirer(tenant.mode) }, tenant, {
    paymentId: existing.id,
    source: { paymentMethodId },
  });
  return { payment: confirmed.payment, invoiceId, events: confirmed.events };
}

/** POST /v1/payments/{id}/confirm: charges with the given saved method or the one remembered at creation. */
export async function confirmPaymentWithMethod(
  deps: PaymentCommandDeps,
  tenant: Tenant,
  input: { paymentId: string; paymentMethodId?: string | null },
): Promise<{ payment: Payment; invoiceId: string | null; events: Event[] }> {
  const scoped = scopedDb(deps.db, tenant);
  const existing = await scoped.payment.findFirst({ where: { id: input.paymentId }, select: { id: true, paymentMethodId: true } });
  if (!existing) throw errors.resourceMissing(`No such payment: '${input.paymentId}'`, 'id');
  const paymentMethodId = input.paymentMethodId ?? existing.paymentMethodId;
  if (!paymentMethodId) throw errors.validationFailed('payment_method is required: the payment has none', 'payment_method');
  const confirmed = await confirmCardPayment({ ...deps, acquirer: deps.gateways.cardAcquirer(tenant.mode) }, tenant, {
    paymentId: existing.id,
    source: { paymentMethodId },
  });
  const invoiceIds = await paymentInvoiceIds(scoped, [existing.id]);
  return { payment: confirmed.payment, invoiceId: invoiceIds.get(existing.id) ?? null, events: confirmed.events };
}
