// A customer saves a card in the portal: the same path as saving one in checkout — the format
// checks every acquirer makes (checkCardFormat), then the acquirer tokenizes it (test mode: the
// simulator, so test cards decline as documented) and attachSavedCard stores the method and
// records payment_method.attached. Optionally made the default at once.
import type { Db } from '../../db/client';
import type { Tenant } from '../../db/tenancy';
import type { PaymentMethod } from '../../generated/prisma/client';
import { errors } from '../../errors';
import type { RecordedEvent } from '../../events';
import { checkCardFormat, type CardAcquirer } from '../../gateways';
import { attachSavedCard } from '../payment-methods/attach-card';
import { setDefaultPaymentMethod } from '../payment-methods/manage-payment-methods';

export interface AddCustomerCardInput {
  customerId: string;
  card: { number: string; expMonth: number; expYear: number; cvc: string | null; holderName: string | null };
  makeDefault: boolean;
  /** Names this attempt at the acquirer (the portal passes its action key). */
  idempotencyKey: string;
}

const FORMAT_PARAM: Record<string, string> = { invalid_number: 'card.number', invalid_expiry: 'card.expiry', expired_card: 'card.expiry', invalid_cvc: 'card.cvc' };

export async function addCustomerCard(
  deps: { db: Db; acquirer: CardAcquirer; txMaxWaitMs?: number },
  tenant: Tenant,
  input: AddCustomerCardInput,
  now: Date,
): Promise<{ paymentMethod: PaymentMethod; isDefault: boolean; events: RecordedEvent[] }> {
  const c = input.card;
  const format = checkCardFormat({ number: c.number, expMonth: c.expMonth, expYear: c.expYear, ...(c.cvc !== null ? { cvc: c.cvc } : {}) }, now);
  if (!format.ok) throw errors.validationFailed(format.message, FORMAT_PARAM[format.code]);
  const result = await attachSavedCard(
    deps,
    tenant,
    {
      customerId: input.customerId,
      card: { number: format.number, expMonth: format.expMonth, expYear: format.expYear, ...(c.cvc ? { cvc: c.cvc } : {}), ...(c.holderName ? { holderName: c.holderName } : {}) },
      idempotencyKey: input.idempotencyKey,
    },
    async (tx, attached) => (input.makeDefault && !attached.isDefault ? { isDefault: (await setDefaultPaymentMethod(tx, attached.paymentMethod.id)).isDefault } : undefined),
  );
  if (result.outcome === 'declined') throw errors.cardDeclined(result.message, 'card.number');
  return { paymentMethod: result.paymentMethod, isDefault: result.isDefault, events: result.events };
}
