// `billing trigger <event-type>` (docs/webhooks.md "Triggering an event"): makes a real event of
// that type happen in test mode by creating, through the public API with a secret test key, the
// objects that cause it: a customer with a test card that succeeds or declines, a product and a
// monthly price, a payment, a subscription, a refund, a pause... So the receiver (a registered
// endpoint, or `billing listen`) gets genuine payloads from the same code paths as production,
// together with the other events those steps cause. Each run creates new objects (marked with
// metadata { created_by: "billing trigger" }).
import type { EventType } from '../../src/events/types';
import type { CallApi } from './api-client';

const SUCCEEDS = '4242424242424242';
/** Saves fine, every later charge is declined (docs/test-cards.md). */
const DECLINES_LATER = '4000000000000341';
const META = { created_by: 'billing trigger' };

type Step = (line: string) => void;

async function customerWithCard(call: CallApi, card: string | null, say: Step) {
  const customer = await call('POST', '/v1/customers', { email: `trigger-${Date.now()}@example.is`, name: 'Prófun Prófsdóttir', metadata: META });
  say(`customer ${customer.id}`);
  let paymentMethod: string | null = null;
  if (card) {
    const pm = await call('POST', `/v1/test_helpers/customers/${customer.id}/payment_methods`, {
      card_number: card,
      exp_month: 12,
      exp_year: new Date().getUTCFullYear() + 3,
      cvc: '123',
    });
    say(`card ${pm.id} (${card === SUCCEEDS ? 'succeeds' : 'declines every charge'})`);
    paymentMethod = pm.id as string;
  }
  return { id: customer.id as string, paymentMethod };
}

async function monthlyPrice(call: CallApi, say: Step) {
  const product = await call('POST', '/v1/products', { name: 'Áskrift (trigger)', metadata: META });
  const price = await call('POST', '/v1/prices', { product: product.id, type: 'recurring', currency: 'ISK', unit_amount: 2990, recurring: { interval: 'month' }, metadata: META });
  say(`product ${product.id}, price ${price.id} (2.990 kr. a month)`);
  return price as { id: string };
}

async function subscription(call: CallApi, card: string, say: Step, extra: Record<string, unknown> = {}) {
  const customer = await customerWithCard(call, card, say);
  const price = await monthlyPrice(call, say);
  const sub = await call('POST', '/v1/subscriptions', { customer: customer.id, items: [{ price: price.id }], metadata: META, ...extra });
  say(`subscription ${sub.id} (${sub.status})`);
  return sub as { id: string; status: string };
}

async function payment(call: CallApi, card: string, say: Step) {
  const customer = await customerWithCard(call, card, say);
  const p = await call('POST', '/v1/payments', {
    amount: 4990,
    currency: 'ISK',
    customer: customer.id,
    payment_method: customer.paymentMethod,
    description: 'billing trigger',
    metadata: META,
  });
  say(`payment ${p.id} (${p.status})`);
  return p as { id: string; status: string };
}

/** What each event type takes to happen. */
export const TRIGGERS: Partial<Record<EventType, (call: CallApi, say: Step) => Promise<void>>> = {
  'customer.created': async (call, say) => void (await customerWithCard(call, null, say)),
  'customer.updated': async (call, say) => {
    const c = await customerWithCard(call, null, say);
    await call('PATCH', `/v1/customers/${c.id}`, { name: 'Prófun Uppfærð' });
    say(`updated ${c.id}`);
  },
  'payment_method.attached': async (call, say) => void (await customerWithCard(call, SUCCEEDS, say)),
  'payment.succeeded': async (call, say) => void (await payment(call, SUCCEEDS, say)),
  'payment.failed': async (call, say) => void (await payment(call, DECLINES_LATER, say)),
  'payment.canceled': async (call, say) => {
    const p = await call('POST', '/v1/payments', { amount: 4990, currency: 'ISK', description: 'billing trigger', metadata: META });
    await call('POST', `/v1/payments/${p.id}/cancel`, {});
    say(`payment ${p.id} created and canceled`);
  },
  'refund.created': async (call, say) => {
    const p = await payment(call, SUCCEEDS, say);
    const r = await call('POST', '/v1/refunds', { payment: p.id, reason: 'billing trigger', metadata: META });
    say(`refund ${r.id} (${r.status}; refund.succeeded and credit_note.created follow)`);
  },
  'subscription.created': async (call, say) => void (await subscription(call, SUCCEEDS, say)),
  'invoice.finalized': async (call, say) => void (await subscription(call, SUCCEEDS, say)),
  'invoice.paid': async (call, say) => void (await subscription(call, SUCCEEDS, say)),
  'invoice.payment_failed': async (call, say) => void (await subscription(call, DECLINES_LATER, say)),
  'subscription.updated': async (call, say) => {
    const s = await subscription(call, SUCCEEDS, say);
    await call('POST', `/v1/subscriptions/${s.id}`, { cancel_at_period_end: true });
    say(`${s.id} set to cancel at period end`);
  },
  'subscription.canceled': async (call, say) => {
    const s = await subscription(call, SUCCEEDS, say);
    await call('POST', `/v1/subscriptions/${s.id}/cancel`, {});
    say(`${s.id} canceled`);
  },
  'subscription.paused': async (call, say) => {
    const s = await subscription(call, SUCCEEDS, say);
    await call('POST', `/v1/subscriptions/${s.id}/pause`, {});
    say(`${s.id} paused`);
  },
  'subscription.resumed': async (call, say) => {
    const s = await subscription(call, SUCCEEDS, say);
    await call('POST', `/v1/subscriptions/${s.id}/pause`, {});
    await call('POST', `/v1/subscriptions/${s.id}/resume`, {});
    say(`${s.id} paused and resumed`);
  },
  'subscription.trial_will_end': async (call, say) => void (await subscription(call, SUCCEEDS, say, { trial_period_days: 1 })),
};
// refund.succeeded and credit_note.created follow a refund by the refund workflow.
TRIGGERS['refund.succeeded'] = TRIGGERS['refund.created'];
TRIGGERS['credit_note.created'] = TRIGGERS['refund.created'];

export const TRIGGERABLE: readonly string[] = Object.keys(TRIGGERS);

export async function trigger(call: CallApi, type: string, say: Step): Promise<void> {
  const run = TRIGGERS[type as EventType];
  if (!run) throw new Error(`billing trigger cannot cause ${type} yet; it can cause: ${TRIGGERABLE.join(', ')}`);
  await run(call, say);
}
