// Saves a card (or a wallet variant of one) as a customer's payment method: the acquirer
// tokenizes it (its checks decide a decline), we keep the token, never the number. The first
// method a customer gets becomes the default (a conditional update: two concurrent first
// attaches cannot both become it). Records payment_method.attached; the caller dispatches.
import type { Tenant, TenantDb } from '../../db/tenancy';
import type { PaymentMethod } from '../../generated/prisma/client';
import { errors } from '../../errors';
import { newId } from '../../ids';
import { recordEvent, type RecordedEvent } from '../../events';
import type { CardAcquirer, CardDetails } from '../../gateways';
import { presentPaymentMethod } from '../../objects/payment-methods';

export type AttachCardResult =
  | { outcome: 'attached'; paymentMethod: PaymentMethod; isDefault: boolean; events: RecordedEvent[] }
  | { outcome: 'declined'; code: string; message: string };

export async function attachSavedCard(
  deps: { db: TenantDb; acquirer: CardAcquirer },
  tenant: Tenant,
  input: { customerId: string; card: CardDetails; paymentMethodId?: string; idempotencyKey?: string },
): Promise<AttachCardResult> {
  const { db, acquirer } = deps;
  const customer = await db.customer.findFirst({ where: { id: input.customerId }, select: { id: true } });
  if (!customer) throw errors.resourceNotFound(`No such customer: '${input.customerId}'`, 'customer');
  const id = input.paymentMethodId ?? newId('paymentMethod');
  const saved = await acquirer.tokenizeCard({ ...input.card, merchantId: tenant.merchantId, idempotencyKey: input.idempotencyKey ?? `${id}:tokenize` });
  if (saved.status === 'declined') return { outcome: 'declined', code: saved.code, message: saved.message };

  const paymentMethod = await db.paymentMethod.create({
    data: {
      id,
      merchantId: tenant.merchantId,
      mode: tenant.mode,
      customerId: customer.id,
      type: saved.wallet ?? 'card',
      brand: saved.brand,
      last4: saved.last4,
      expMonth: saved.expMonth,
      expYear: saved.expYear,
      acquirerToken: saved.token,
    },
  });
  const madeDefault = await db.customer.updateMany({ where: { id: customer.id, defaultPaymentMethodId: null }, data: { defaultPaymentMethodId: id } });
  const isDefault = madeDefault.count === 1;
  const event = await recordEvent(db, tenant, { type: 'payment_method.attached', data: presentPaymentMethod(paymentMethod, isDefault) });
  return { outcome: 'attached', paymentMethod, isDefault, events: [event] };
}
