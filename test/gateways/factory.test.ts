// createGateways per mode: test mode gets the simulators on the database, live mode with
// nothing configured fails every call with AdapterNotConfigured (never a silent success and
// never the simulator), and a configured live adapter is the one used.
import assert from 'node:assert/strict';
import { ApiError } from '../../src/errors';
import { testEnv, type TestEnv } from '../support/env';
import { newMerchant } from '../support/api';
import { AdapterNotConfiguredError, BankClaimsSimulator, CardSimulator, createBankClaims, createCardAcquirer, createGateways, type CardAcquirer } from '../../src/gateways';

async function notConfigured(p: Promise<unknown>, system: 'card_acquirer' | 'bank_claims'): Promise<void> {
  await assert.rejects(p, (e: unknown) => {
    assert.ok(e instanceof AdapterNotConfiguredError);
    assert.ok(e instanceof ApiError);
    assert.deepEqual([e.status, e.code, e.system, e.name], [503, 'adapter_not_configured', system, 'AdapterNotConfigured']);
    return true;
  });
}

describe('gateways: createGateways', () => {
  let env: TestEnv;
  let merchantId: string;
  before(async () => {
    env = await testEnv();
    merchantId = (await newMerchant(env)).id;
  });

  it('test mode uses the simulators', () => {
    const g = createGateways({ mode: 'test', db: env.db });
    assert.ok(g.cardAcquirer instanceof CardSimulator);
    assert.ok(g.bankClaims instanceof BankClaimsSimulator);
    assert.equal(g.cardAcquirer.kind, 'simulator');
    assert.throws(() => createGateways({ mode: 'test' }), /database/);
  });

  it('live mode with nothing configured fails every call clearly, and writes nothing', async () => {
    for (const g of [createGateways({ mode: 'live' }), createGateways({ mode: 'live', db: env.db, config: { simulator: { slowDelayMs: 1 } } })]) {
      assert.equal(g.cardAcquirer.kind, 'unconfigured');
      assert.equal(g.bankClaims.kind, 'unconfigured');
      await notConfigured(
        g.cardAcquirer.tokenizeCard({ merchantId, number: '4242424242424242', expMonth: 12, expYear: 2034, cvc: '123', idempotencyKey: 'live-tok' }),
        'card_acquirer',
      );
      await notConfigured(
        g.cardAcquirer.charge({
          merchantId,
          card: { number: '4242424242424242', expMonth: 12, expYear: 2034, cvc: '123' },
          amount: 100,
          currency: 'ISK',
          description: 'x',
          idempotencyKey: 'live-ch',
        }),
        'card_acquirer',
      );
      await notConfigured(g.cardAcquirer.refund({ merchantId, chargeId: 'ch_x', amount: 100, idempotencyKey: 'live-re' }), 'card_acquirer');
      await notConfigured(
        g.bankClaims.createClaim({
          merchantId,
          kennitala: '1201743399',
          amount: 100,
          currency: 'ISK',
          dueDate: new Date('2031-01-01'),
          reference: 'r',
          idempotencyKey: 'live-clm',
        }),
        'bank_claims',
      );
      await notConfigured(g.bankClaims.getClaim({ merchantId, claimId: 'clm_x' }), 'bank_claims');
      await notConfigured(g.bankClaims.cancelClaim({ merchantId, claimId: 'clm_x', idempotencyKey: 'k' }), 'bank_claims');
    }
    assert.equal(await env.db.simCharge.count({ where: { merchantId } }), 0);
    assert.equal(await env.db.simCardToken.count({ where: { merchantId } }), 0);
    assert.equal(await env.db.simBankClaim.count({ where: { merchantId } }), 0);
  });

  it('the single-adapter factories behave the same', async () => {
    await notConfigured(createCardAcquirer({ mode: 'live' }).charge({ merchantId, token: 't', amount: 1, currency: 'ISK', description: '', idempotencyKey: 'k' }), 'card_acquirer');
    await notConfigured(createBankClaims({ mode: 'live' }).getClaim({ merchantId, claimId: 'c' }), 'bank_claims');
    assert.ok(createCardAcquirer({ mode: 'test', db: env.db }) instanceof CardSimulator);
    assert.ok(createBankClaims({ mode: 'test', db: env.db }) instanceof BankClaimsSimulator);
  });

  it('live mode uses a configured adapter', async () => {
    const calls: string[] = [];
    const live: CardAcquirer = {
      kind: 'live',
      async tokenizeCard() {
        calls.push('tokenize');
        return { status: 'declined', code: 'card_declined', message: 'no' };
      },
      async charge(input) {
        calls.push(`charge ${input.idempotencyKey}`);
        return { status: 'succeeded', chargeId: 'ch_live_1', amount: input.amount, currency: input.currency, card: { brand: 'visa', last4: '4242', wallet: null } };
      },
      async refund() {
        calls.push('refund');
        return { status: 'succeeded', refundId: 're_live_1', amount: 1 };
      },
    };
    const g = createGateways({ mode: 'live', config: { live: { cardAcquirer: live } } });
    assert.equal(g.cardAcquirer, live);
    const res = await g.cardAcquirer.charge({ merchantId, token: 'tok_live', amount: 500, currency: 'ISK', description: 'x', idempotencyKey: 'k1' });
    assert.equal(res.status, 'succeeded');
    assert.deepEqual(calls, ['charge k1']);
    await notConfigured(g.bankClaims.getClaim({ merchantId, claimId: 'c' }), 'bank_claims');
  });
});
