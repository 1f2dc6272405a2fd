// Test helper (test mode only): attach a simulator test card to a customer without a browser,
// as if the customer had saved it in checkout. A declined card answers 402 card_declined with
// the acquirer's reason.
import type { Db } from '../../db/client';
import { scopedDb, type Tenant } from '../../db/tenancy';
import { errors } from '../../errors';
import type { ModeGateways, Wallet } from '../../gateways';
import type { RecordedEvent } from '../../events';
import type { PaymentMethod } from '../../generated/prisma/client';
import { attachSavedCard } from './attach-card';

export async function attachTestCard(
  deps: { db: Db; gateways: ModeGateways; txMaxWaitMs?: number },
  tenant: Tenant,
  input: { customerId: string; cardNumber: string; expMonth: number; expYear: number; cvc?: string | null; holderName?: string | null; wallet?: Wallet | null },
): Promise<{ paymentMethod: PaymentMethod; isDefault: boolean; events: RecordedEvent[] }> {
  if (tenant.mode !== 'test') throw errors.testModeOnly('Test helpers are available only with test keys', undefined);
  const customer = await scopedDb(deps.db, tenant).customer.findFirst({ where: { id: input.customerId }, select: { id: true } });
  if (!customer) throw errors.resourceMissing(`No such customer: '${input.customerId}'`, 'id');
  const result = await attachSavedCard({ db: deps.db, acquirer: deps.gateways.cardAcquirer(tenant.mode), txMaxWaitMs: deps.txMaxWaitMs }, tenant, {
    customerId: customer.id,
    card: {
      number: input.cardNumber,
      expMonth: input.expMonth,
      expYear: input.expYear,
      ...(input.cvc ? { cvc: input.cvc } : {}),
      ...(input.holderName ? { holderName: input.holderName } : {}),
      ...(input.wallet ? { wallet: input.wallet } : {}),
    },
  });
  if (result.outcome === 'declined') throw errors.cardDeclined(`${result.message} (${result.code})`, result.code.startsWith('invalid_') ? paramOf(result.code) : 'card_number');
  return result;
}

function paramOf(code: string): string {
  if (code === 'invalid_expiry') return 'exp_month';
  if (code === 'invalid_cvc') return 'cvc';
  return 'card_number';
}
