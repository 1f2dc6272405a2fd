// Saves a card (or a wallet variant of one) as a customer's payment method: the acquirer
// tokenizes it (its checks decide a decline), we keep the token, never the number. The acquirer
// is called with no transaction open; then one transaction stores the method: the first method
// a customer gets becomes the default (a conditional update: two concurrent first attaches
// cannot both become it), payment_method.attached is recorded; the caller dispatches.
import type { Db } from '../../db/client';
import { scopedDb, type Tenant, type TenantDb } from '../../db/tenancy';
import type { PaymentMethod } from '../../generated/prisma/client';
import { errors } from '../../errors';
import { newId } from '../../ids';
import { datingEventsAt, recordEvent, type RecordedEvent } from '../../events';
import { customerClockTime } from '../test-clocks/customer-clock-time';
import type { CardAcquirer, CardDetails, SavedCard } from '../../gateways';
import { presentPaymentMethod } from '../../objects/payment-methods';

export type AttachCardResult =
  { outcome: 'attached'; paymentMethod: PaymentMethod; isDefault: boolean; events: RecordedEvent[] } | { outcome: 'declined'; code: string; message: string };

/**
 * Tokenizes the card (no transaction may be open), then stores it in one transaction, where
 * `alsoInTransaction` adds the caller's own writes (making it the default, …).
 */
export async function attachSavedCard(
  deps: { db: Db; acquirer: CardAcquirer; /** How long the storing transaction waits for a connection (DB_TX_MAX_WAIT_MS). */ txMaxWaitMs?: number },
  tenant: Tenant,
  input: { customerId: string; card: CardDetails; paymentMethodId?: string; idempotencyKey?: string },
  alsoInTransaction?: (tx: TenantDb, attached: { paymentMethod: PaymentMethod; isDefault: boolean }) => Promise<{ isDefault: boolean } | void>,
): Promise<AttachCardResult> {
  const scoped = scopedDb(deps.db, tenant);
  const customer = await scoped.customer.findFirst({ where: { id: input.customerId }, select: { id: true } });
  if (!customer) throw errors.resourceNotFound(`No such customer: '${input.customerId}'`, 'customer');
  const id = input.paymentMethodId ?? newId('paymentMethod');
  const saved = await deps.acquirer.tokenizeCard({ ...input.card, merchantId: tenant.merchantId, idempotencyKey: input.idempotencyKey ?? `${id}:tokenize` });
  if (saved.status === 'declined') return { outcome: 'declined', code: saved.code, message: saved.message };
  return scoped.$transaction(
    async (tx) => {
      const attached = await recordSavedCard(tx, tenant, { customerId: customer.id, saved, paymentMethodId: id });
      const extra = alsoInTransaction ? await alsoInTransaction(tx, attached) : undefined;
      return { outcome: 'attached' as const, ...attached, ...(extra ? { isDefault: extra.isDefault } : {}) };
    },
    { maxWait: deps.txMaxWaitMs ?? 5_000, timeout: 15_000 },
  );
}

/** Stores a card the acquirer tokenized as the customer's payment method (inside the caller's transaction). */
export async function recordSavedCard(
  db: TenantDb,
  tenant: Tenant,
  input: { customerId: string; saved: SavedCard; paymentMethodId?: string },
): Promise<{ paymentMethod: PaymentMethod; isDefault: boolean; events: RecordedEvent[] }> {
  const { saved } = input;
  const customer = await db.customer.findFirst({ where: { id: input.customerId }, select: { id: true } });
  if (!customer) throw errors.resourceNotFound(`No such customer: '${input.customerId}'`, 'customer');
  const id = input.paymentMethodId ?? newId('paymentMethod');
  // A test-clock customer's method is attached at the clock's time, and so is its event.
  const clockTime = await customerClockTime(db, customer.id);
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
      ...(clockTime ? { createdAt: clockTime } : {}),
    },
  });
  const madeDefault = await db.customer.updateMany({ where: { id: customer.id, defaultPaymentMethodId: null }, data: { defaultPaymentMethodId: id } });
  const isDefault = madeDefault.count === 1;
  const record = () => recordEvent(db, tenant, { type: 'payment_method.attached', data: presentPaymentMethod(paymentMethod, isDefault) });
  const event = await (clockTime ? datingEventsAt(clockTime, record) : record());
  return { paymentMethod, isDefault, events: [event] };
}
