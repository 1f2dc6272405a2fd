// The card simulator against the real database: every test card's outcome, idempotency
// (concurrent duplicates, the slow card after a caller-side timeout, the transient card),
// refunds (partial, over-refund, concurrent), tenancy of tokens and charges.
import assert from 'node:assert/strict';
import { testEnv, type TestEnv } from '../support/env';
import { newMerchant } from '../support/api';
import {
  createCardAcquirer,
  GatewayIdempotencyKeyReusedError,
  GatewayInvalidRequestError,
  GatewayUnavailableError,
  isRetryableGatewayError,
  planSimulatorFault,
  type CardDetails,
  type CardSimulator,
  type ChargeResult,
  type TokenizeCardResult,
} from '../../src/gateways';

const EXP = { expMonth: 12, expYear: 2034 };
function card(number: string, extra: Partial<CardDetails> = {}): CardDetails {
  const digits = number.replace(/ /g, '');
  return { number, ...EXP, cvc: digits.startsWith('37') ? '1234' : '123', ...extra };
}

let keyCounter = 0;
const key = (label: string) => `${label}-${process.pid}-${++keyCounter}`;

function succeeded(res: TokenizeCardResult): Extract<TokenizeCardResult, { status: 'succeeded' }> {
  assert.equal(res.status, 'succeeded', JSON.stringify(res));
  return res as Extract<TokenizeCardResult, { status: 'succeeded' }>;
}

async function rejectsWith<E extends Error>(p: Promise<unknown>, cls: new (...a: any[]) => E, check?: (e: E) => void): Promise<void> {
  await assert.rejects(p, (e: unknown) => {
    assert.ok(e instanceof cls, `expected ${cls.name}, got ${(e as Error)?.name}: ${(e as Error)?.message}`);
    check?.(e as E);
    return true;
  });
}

describe('gateways: card simulator', function () {
  this.timeout(60_000);
  let env: TestEnv;
  let merchantId: string;
  let otherMerchantId: string;
  let sim: CardSimulator;

  before(async () => {
    env = await testEnv();
    merchantId = (await newMerchant(env)).id;
    otherMerchantId = (await newMerchant(env)).id;
    sim = createCardAcquirer({ mode: 'test', db: env.db, config: { simulator: { slowDelayMs: 1500 } } });
  });

  const tokenize = (c: CardDetails, k = key('tok')) => sim.tokenizeCard({ merchantId, idempotencyKey: k, ...c });
  const chargeToken = (token: string, k = key('ch'), amount = 1990, currency = 'ISK') =>
    sim.charge({ merchantId, token, amount, currency, description: 'test charge', idempotencyKey: k });
  const chargeCard = (c: CardDetails, k = key('ch'), amount = 1990) => sim.charge({ merchantId, card: c, amount, currency: 'EUR', description: 'one-off', idempotencyKey: k });
  const chargeRows = (idempotencyKey: string) => env.db.simCharge.count({ where: { merchantId, idempotencyKey } });

  describe('test cards', () => {
    const successCards: Array<[string, string, string]> = [
      ['4242 4242 4242 4242', 'visa', '4242'],
      ['4000 0566 5566 5556', 'visa', '5556'],
      ['5555 5555 5555 4444', 'mastercard', '4444'],
      ['2223 0031 2200 3222', 'mastercard', '3222'],
      ['3782 822463 10005', 'amex', '0005'],
      ['6011 1111 1111 1117', 'discover', '1117'],
      ['3566 0020 2036 0505', 'jcb', '0505'],
      ['3622 720627 1667', 'diners', '1667'],
      ['6200 0000 0000 0005', 'unionpay', '0005'],
    ];
    for (const [number, brand, last4] of successCards) {
      it(`${number} (${brand}) saves and charges successfully, with a token and one-off`, async () => {
        const saved = succeeded(await tokenize(card(number)));
        assert.match(saved.token, /^tok_sim_[0-9A-Za-z]{24}$/);
        assert.deepEqual([saved.brand, saved.last4, saved.expMonth, saved.expYear, saved.wallet], [brand, last4, 12, 2034, null]);
        const viaToken = await chargeToken(saved.token);
        assert.equal(viaToken.status, 'succeeded');
        assert.match((viaToken as any).chargeId, /^ch_sim_/);
        assert.deepEqual(viaToken.card, { brand, last4, wallet: null });
        const oneOff = await chargeCard(card(number));
        assert.equal(oneOff.status, 'succeeded');
        assert.deepEqual(oneOff.status === 'succeeded' && [oneOff.amount, oneOff.currency], [1990, 'EUR']);
      });
    }

    const declineCards: Array<[string, string]> = [
      ['4000 0000 0000 0002', 'card_declined'],
      ['4000 0000 0000 9995', 'insufficient_funds'],
      ['4000 0000 0000 0069', 'expired_card'],
      ['4000 0000 0000 0127', 'incorrect_cvc'],
      ['4000 0000 0000 0119', 'processing_error'],
    ];
    for (const [number, code] of declineCards) {
      it(`${number} is declined with ${code} when saved and when charged one-off (the attempt is recorded)`, async () => {
        const saved = await tokenize(card(number));
        assert.equal(saved.status, 'declined');
        assert.equal(saved.status === 'declined' && saved.code, code);
        assert.ok(saved.status === 'declined' && saved.message.length > 0);
        const k = key('decline');
        const res = await chargeCard(card(number), k);
        assert.equal(res.status, 'declined');
        if (res.status !== 'declined') return;
        assert.equal(res.code, code);
        assert.match(res.chargeId!, /^ch_sim_/);
        assert.deepEqual(res.card, { brand: 'visa', last4: number.slice(-4), wallet: null });
        const row = await env.db.simCharge.findUniqueOrThrow({ where: { merchantId_idempotencyKey: { merchantId, idempotencyKey: k } } });
        assert.deepEqual([row.status, row.declineCode], ['declined', code]);
        // the same key gives the same decline
        assert.deepEqual(await chargeCard(card(number), k), res);
      });
    }

    it('4000 0000 0000 0341 saves fine but every later charge is declined (card_declined)', async () => {
      const saved = succeeded(await tokenize(card('4000 0000 0000 0341')));
      for (let i = 0; i < 2; i++) {
        const res = await chargeToken(saved.token);
        assert.equal(res.status, 'declined');
        assert.equal(res.status === 'declined' && res.code, 'card_declined');
      }
      const oneOff = await chargeCard(card('4000000000000341'));
      assert.equal(oneOff.status === 'declined' && oneOff.code, 'card_declined');
    });

    it("4000 0000 0000 0259 declines (insufficient_funds) until setCardBehaviour(token, 'succeed'): a failed renewal recovered", async () => {
      const saved = succeeded(await tokenize(card('4000000000000259')));
      const firstKey = key('renewal-attempt-1');
      const first = await chargeToken(saved.token, firstKey);
      assert.equal(first.status === 'declined' && first.code, 'insufficient_funds');
      const second = await chargeToken(saved.token);
      assert.equal(second.status === 'declined' && second.code, 'insufficient_funds');

      const updated = await sim.setCardBehaviour({ merchantId, token: saved.token, behaviour: 'succeed' });
      assert.equal(updated.behaviour, 'succeed');
      assert.equal(updated.token, saved.token);
      const retry = await chargeToken(saved.token, key('renewal-attempt-3'));
      assert.equal(retry.status, 'succeeded');
      // an earlier attempt's key still answers with its original decline
      assert.deepEqual(await chargeToken(saved.token, firstKey), first);

      await sim.setCardBehaviour({ merchantId, token: saved.token, behaviour: 'default' });
      assert.equal((await chargeToken(saved.token)).status, 'declined');
    });

    it('setCardBehaviour can make any saved card fail and recover; it refuses unknown, foreign tokens and bad behaviours', async () => {
      const saved = succeeded(await tokenize(card('4242424242424242')));
      await sim.setCardBehaviour({ merchantId, token: saved.token, behaviour: 'insufficient_funds' });
      const res = await chargeToken(saved.token);
      assert.equal(res.status === 'declined' && res.code, 'insufficient_funds');
      await sim.setCardBehaviour({ merchantId, token: saved.token, behaviour: 'card_declined' });
      assert.equal(((await chargeToken(saved.token)) as any).code, 'card_declined');
      await sim.setCardBehaviour({ merchantId, token: saved.token, behaviour: 'default' });
      assert.equal((await chargeToken(saved.token)).status, 'succeeded');

      await rejectsWith(sim.setCardBehaviour({ merchantId: otherMerchantId, token: saved.token, behaviour: 'succeed' }), GatewayInvalidRequestError, (e) =>
        assert.equal(e.code, 'token_not_found'),
      );
      await rejectsWith(sim.setCardBehaviour({ merchantId, token: 'tok_sim_nope', behaviour: 'succeed' }), GatewayInvalidRequestError, (e) =>
        assert.equal(e.code, 'token_not_found'),
      );
      await rejectsWith(sim.setCardBehaviour({ merchantId, token: saved.token, behaviour: 'explode' as any }), GatewayInvalidRequestError, (e) =>
        assert.equal(e.param, 'behaviour'),
      );
    });

    it('4000 0000 0000 7726 charges fine but its refunds fail (expired_or_canceled_card)', async () => {
      const saved = succeeded(await tokenize(card('4000000000007726')));
      const charged = await chargeToken(saved.token, key('ch'), 5000);
      assert.equal(charged.status, 'succeeded');
      const refund = await sim.refund({ merchantId, chargeId: (charged as any).chargeId, amount: 1000, idempotencyKey: key('re') });
      assert.equal(refund.status, 'failed');
      assert.equal(refund.status === 'failed' && refund.code, 'expired_or_canceled_card');
    });
  });

  describe('card data checks', () => {
    const cases: Array<[string, CardDetails, string]> = [
      ['a Luhn failure', card('4242 4242 4242 4241'), 'invalid_number'],
      ['letters in the number', card('4242 4242 4242 424x'), 'invalid_number'],
      ['an expiry in the past', card('4242424242424242', { expMonth: 1, expYear: 2020 }), 'expired_card'],
      ['month 13', card('4242424242424242', { expMonth: 13 }), 'invalid_expiry'],
      ['a 2-digit cvc', card('4242424242424242', { cvc: '12' }), 'invalid_cvc'],
      ['a missing cvc', card('4242424242424242', { cvc: undefined }), 'invalid_cvc'],
      ['a real-looking card that is not a test card', card('4111 1111 1111 1111'), 'card_declined'],
    ];
    for (const [name, c, code] of cases) {
      it(`declines ${name} with ${code}, saving and charging nothing`, async () => {
        const k = key('bad');
        const saved = await tokenize(c, k);
        assert.equal(saved.status === 'declined' && saved.code, code);
        assert.equal(await env.db.simCardToken.count({ where: { merchantId, idempotencyKey: k } }), 0);
        const res = await chargeCard(c, k);
        assert.equal(res.status, 'declined');
        assert.equal(res.status === 'declined' && res.code, code);
        assert.equal(res.status === 'declined' && res.chargeId, null);
        assert.equal(await chargeRows(k), 0);
      });
    }

    it('never stores a number that is not a test card', async () => {
      await tokenize(card('4111111111111111'));
      await chargeCard(card('4111111111111111'));
      assert.equal(await env.db.simCardToken.count({ where: { number: '4111111111111111' } }), 0);
      assert.equal(await env.db.simCharge.count({ where: { number: '4111111111111111' } }), 0);
    });
  });

  describe('wallets', () => {
    it('Apple Pay and Google Pay are wallet variants of the card, behaving by its number', async () => {
      const apple = succeeded(await tokenize(card('4242424242424242', { wallet: 'apple_pay', cvc: undefined })));
      assert.equal(apple.wallet, 'apple_pay');
      const charged = await chargeToken(apple.token);
      assert.equal(charged.status, 'succeeded');
      assert.deepEqual(charged.card, { brand: 'visa', last4: '4242', wallet: 'apple_pay' });

      const google = succeeded(await tokenize(card('5555555555554444', { wallet: 'google_pay', cvc: undefined })));
      assert.equal(google.wallet, 'google_pay');
      assert.equal((await chargeToken(google.token)).status, 'succeeded');

      const googleFailing = succeeded(await tokenize(card('4000000000000341', { wallet: 'google_pay', cvc: undefined })));
      assert.equal(((await chargeToken(googleFailing.token)) as any).code, 'card_declined');
      const appleDeclined = await tokenize(card('4000000000009995', { wallet: 'apple_pay', cvc: undefined }));
      assert.equal(appleDeclined.status === 'declined' && appleDeclined.code, 'insufficient_funds');
      const oneOff = await chargeCard(card('4000000000000002', { wallet: 'apple_pay', cvc: undefined }));
      assert.equal(oneOff.status === 'declined' && oneOff.code, 'card_declined');
      assert.equal(oneOff.card?.wallet, 'apple_pay');
    });

    it('refuses an unknown wallet', async () => {
      await rejectsWith(tokenize(card('4242424242424242', { wallet: 'samsung_pay' as any })), GatewayInvalidRequestError, (e) => assert.equal(e.param, 'wallet'));
    });
  });

  describe('idempotency', () => {
    it('tokenizing with the same key twice, even concurrently, gives one token', async () => {
      const k = key('tok-dup');
      const results = await Promise.all(Array.from({ length: 10 }, () => tokenize(card('4242424242424242'), k)));
      const tokens = new Set(results.map((r) => succeeded(r).token));
      assert.equal(tokens.size, 1);
      assert.equal(await env.db.simCardToken.count({ where: { merchantId, idempotencyKey: k } }), 1);
      await rejectsWith(tokenize(card('5555555555554444'), k), GatewayIdempotencyKeyReusedError);
    });

    it('10 concurrent charges with the same key make exactly one charge and identical results', async () => {
      const saved = succeeded(await tokenize(card('4242424242424242')));
      const k = key('ch-dup');
      const results = await Promise.all(Array.from({ length: 10 }, () => chargeToken(saved.token, k, 4990)));
      assert.equal(await chargeRows(k), 1);
      for (const r of results) assert.deepEqual(r, results[0]);
      assert.equal(results[0]!.status, 'succeeded');
      // and later, too
      assert.deepEqual(await chargeToken(saved.token, k, 4990), results[0]);
    });

    it('10 concurrent one-off charges with the same key make exactly one charge', async () => {
      const k = key('oneoff-dup');
      const results = await Promise.all(Array.from({ length: 10 }, () => chargeCard(card('5555 5555 5555 4444'), k)));
      assert.equal(await chargeRows(k), 1);
      for (const r of results) assert.deepEqual(r, results[0]);
    });

    it('the same key with other parameters is refused, not charged', async () => {
      const saved = succeeded(await tokenize(card('4242424242424242')));
      const k = key('reuse');
      await chargeToken(saved.token, k, 1000);
      await rejectsWith(chargeToken(saved.token, k, 2000), GatewayIdempotencyKeyReusedError, (e) => {
        assert.equal(e.retryable, false);
        assert.equal(e.name, 'GatewayIdempotencyKeyReused');
      });
      await rejectsWith(chargeToken(saved.token, k, 1000, 'EUR'), GatewayIdempotencyKeyReusedError);
      await rejectsWith(chargeCard(card('4242424242424242'), k, 1000), GatewayIdempotencyKeyReusedError);
      assert.equal(await chargeRows(k), 1);
    });

    it('keys are per merchant: another merchant may use the same key', async () => {
      const k = key('shared');
      const mine = await chargeCard(card('4242424242424242'), k);
      const theirs = await sim.charge({ merchantId: otherMerchantId, card: card('4242424242424242'), amount: 1990, currency: 'EUR', description: 'x', idempotencyKey: k });
      assert.equal(mine.status, 'succeeded');
      assert.equal(theirs.status, 'succeeded');
      assert.notEqual((mine as any).chargeId, (theirs as any).chargeId);
    });

    it('the slow card: a caller that times out and retries with the same key gets the one success', async () => {
      const saved = succeeded(await tokenize(card('4000 0000 0000 3220')));
      const k = key('slow');
      const first = chargeToken(saved.token, k, 7990);
      let timer: NodeJS.Timeout | undefined;
      const callerTimeout = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), 200);
      });
      // slowDelayMs is 1500: the caller's 200 ms timeout always fires first
      const raced = await Promise.race([first, callerTimeout]);
      clearTimeout(timer);
      assert.equal(raced, 'timeout');

      const retry = await chargeToken(saved.token, k, 7990);
      assert.equal(retry.status, 'succeeded');
      const original = await first;
      assert.deepEqual(original, retry);
      assert.equal(await chargeRows(k), 1);
      const listed = (await sim.listCharges(merchantId)).filter((c) => c.idempotencyKey === k);
      assert.equal(listed.length, 1);
      assert.equal(listed[0]!.status, 'succeeded');
    });

    it('the transient card: the first attempt per key throws a retryable error having charged nothing; the retry succeeds', async () => {
      const saved = succeeded(await tokenize(card('4000 0000 0000 5126')));
      const k = key('transient');
      await rejectsWith(chargeToken(saved.token, k), GatewayUnavailableError, (e) => {
        assert.equal(e.retryable, true);
        assert.equal(e.reason, 'timeout');
        assert.equal(e.name, 'GatewayUnavailable');
        assert.equal(isRetryableGatewayError(e), true);
      });
      assert.equal(await chargeRows(k), 0);
      const retry = await chargeToken(saved.token, k);
      assert.equal(retry.status, 'succeeded');
      assert.deepEqual(await chargeToken(saved.token, k), retry);
      assert.equal(await chargeRows(k), 1);

      // each new key fails once again; one-off charges of the card too
      const k2 = key('transient');
      await rejectsWith(chargeCard(card('4000000000005126'), k2), GatewayUnavailableError);
      assert.equal((await chargeCard(card('4000000000005126'), k2)).status, 'succeeded');
    });
  });

  describe('planned faults (docs/gateways.md "Fault injection")', () => {
    const visa = '4242424242424242';
    it('declined: the charge is declined and recorded under its key, which keeps its answer', async () => {
      const { token } = succeeded(await tokenize(card(visa)));
      planSimulatorFault({ merchantId, operation: 'charge', kind: 'declined' });
      const k = key('ch');
      const first = await chargeToken(token, k);
      assert.deepEqual([first.status, (first as any).code], ['declined', 'card_declined']);
      assert.deepEqual(await chargeToken(token, k), first);
      assert.equal((await chargeToken(token)).status, 'succeeded', 'the next attempt is normal again');
    });
    it('invalid_request and transient: thrown before anything is charged', async () => {
      const { token } = succeeded(await tokenize(card(visa)));
      planSimulatorFault({ merchantId, operation: 'charge', kind: 'invalid_request' });
      planSimulatorFault({ merchantId, operation: 'charge', kind: 'transient', times: 2 });
      const k = key('ch');
      await rejectsWith(chargeToken(token, k), GatewayInvalidRequestError, (e) => assert.equal(e.code, 'request_rejected'));
      await rejectsWith(chargeToken(token, k), GatewayUnavailableError);
      await rejectsWith(chargeToken(token, k), GatewayUnavailableError);
      assert.equal(await chargeRows(k), 0);
      assert.equal((await chargeToken(token, k)).status, 'succeeded');
    });
    it('timeout: charged, the answer lost; the retry with the key gets the one charge', async () => {
      const { token } = succeeded(await tokenize(card(visa)));
      planSimulatorFault({ merchantId, operation: 'charge', kind: 'timeout' });
      const k = key('ch');
      await rejectsWith(chargeToken(token, k), GatewayUnavailableError, (e) => assert.equal(e.reason, 'timeout'));
      assert.equal(await chargeRows(k), 1);
      assert.equal((await chargeToken(token, k)).status, 'succeeded');
      assert.equal(await chargeRows(k), 1);
    });
    it('duplicate: the request arrives twice; one charge', async () => {
      const { token } = succeeded(await tokenize(card(visa)));
      planSimulatorFault({ merchantId, operation: 'charge', kind: 'duplicate' });
      const k = key('ch');
      assert.equal((await chargeToken(token, k)).status, 'succeeded');
      assert.equal(await chargeRows(k), 1);
    });
    it('refunds: declined fails the refund; timeout refunds once', async () => {
      const res = await chargeCard(card(visa), key('ch'), 5000);
      const chargeId = (res as any).chargeId as string;
      planSimulatorFault({ merchantId, operation: 'refund', kind: 'declined' });
      const refused = await sim.refund({ merchantId, chargeId, amount: 1000, idempotencyKey: key('re') });
      assert.deepEqual([refused.status, (refused as any).code], ['failed', 'expired_or_canceled_card']);
      planSimulatorFault({ merchantId, operation: 'refund', kind: 'timeout' });
      const k = key('re');
      await rejectsWith(sim.refund({ merchantId, chargeId, amount: 1000, idempotencyKey: k }), GatewayUnavailableError);
      assert.equal((await sim.refund({ merchantId, chargeId, amount: 1000, idempotencyKey: k })).status, 'succeeded');
      assert.equal(await env.db.simRefund.count({ where: { merchantId, idempotencyKey: k } }), 1);
    });
  });

  describe('refunds', () => {
    async function charge(amount: number): Promise<string> {
      const res: ChargeResult = await chargeCard(card('4242424242424242'), key('ch'), amount);
      assert.equal(res.status, 'succeeded');
      return (res as any).chargeId;
    }
    const refund = (chargeId: string, amount: number, k = key('re'), m = merchantId) => sim.refund({ merchantId: m, chargeId, amount, idempotencyKey: k });

    it('partial refunds up to the charged total, then refuses more', async () => {
      const chargeId = await charge(10_000);
      const a = await refund(chargeId, 3000);
      assert.equal(a.status, 'succeeded');
      assert.match((a as any).refundId, /^re_sim_/);
      assert.equal((a as any).amount, 3000);
      assert.equal((await refund(chargeId, 7000)).status, 'succeeded');
      const over = await refund(chargeId, 1);
      assert.equal(over.status, 'failed');
      assert.equal(over.status === 'failed' && over.code, 'amount_exceeds_refundable');
      assert.ok(over.status === 'failed' && over.message.length > 0);
      const listed = await sim.getCharge(merchantId, chargeId);
      assert.equal(listed?.refundedAmount, 10_000);
      const refunds = await sim.listRefunds(merchantId, { chargeId });
      assert.deepEqual(refunds.map((r) => r.status).sort(), ['failed', 'succeeded', 'succeeded']);
    });

    it('refuses a single refund larger than the charge', async () => {
      const chargeId = await charge(5000);
      const res = await refund(chargeId, 5001);
      assert.equal(res.status === 'failed' && res.code, 'amount_exceeds_refundable');
      assert.equal((await refund(chargeId, 5000)).status, 'succeeded');
    });

    it('concurrent refunds never add up to more than the charge', async () => {
      const chargeId = await charge(10_000);
      const results = await Promise.all(Array.from({ length: 10 }, () => refund(chargeId, 3000)));
      assert.equal(results.filter((r) => r.status === 'succeeded').length, 3);
      assert.equal(results.filter((r) => r.status === 'failed' && r.code === 'amount_exceeds_refundable').length, 7);
      const sum = await env.db.simRefund.aggregate({ _sum: { amount: true }, where: { chargeId, status: 'succeeded' } });
      assert.equal(sum._sum.amount, 9000n);
    });

    it('the same refund key, even concurrently, refunds once and answers the same', async () => {
      const chargeId = await charge(10_000);
      const k = key('re-dup');
      const results = await Promise.all(Array.from({ length: 10 }, () => refund(chargeId, 2500, k)));
      for (const r of results) assert.deepEqual(r, results[0]);
      assert.equal(results[0]!.status, 'succeeded');
      assert.equal(await env.db.simRefund.count({ where: { merchantId, idempotencyKey: k } }), 1);
      assert.equal((await sim.getCharge(merchantId, chargeId))?.refundedAmount, 2500);
      await rejectsWith(refund(chargeId, 2600, k), GatewayIdempotencyKeyReusedError);
      const otherCharge = await charge(1000);
      await rejectsWith(refund(otherCharge, 2500, k), GatewayIdempotencyKeyReusedError);
    });

    it('a declined charge is not refundable', async () => {
      const res = await chargeCard(card('4000000000000002'));
      const out = await refund((res as any).chargeId, 100);
      assert.equal(out.status === 'failed' && out.code, 'charge_not_refundable');
    });

    it("an unknown or another merchant's charge is not found (thrown, not retryable)", async () => {
      const chargeId = await charge(1000);
      await rejectsWith(refund(chargeId, 100, key('re'), otherMerchantId), GatewayInvalidRequestError, (e) => {
        assert.equal(e.code, 'charge_not_found');
        assert.equal(isRetryableGatewayError(e), false);
      });
      await rejectsWith(refund('ch_sim_nope', 100), GatewayInvalidRequestError, (e) => assert.equal(e.code, 'charge_not_found'));
      assert.equal(await sim.getCharge(otherMerchantId, chargeId), null);
    });

    for (const bad of [0, -1, 1.5, Number.NaN, '100' as unknown as number]) {
      it(`refuses refund amount ${String(bad)}`, async () => {
        const chargeId = await charge(1000);
        await rejectsWith(refund(chargeId, bad), GatewayInvalidRequestError, (e) => assert.equal(e.param, 'amount'));
      });
    }
  });

  describe('tenancy and bad requests', () => {
    it("another merchant's token is unknown", async () => {
      const saved = succeeded(await tokenize(card('4242424242424242')));
      await rejectsWith(
        sim.charge({ merchantId: otherMerchantId, token: saved.token, amount: 100, currency: 'ISK', description: '', idempotencyKey: key('x') }),
        GatewayInvalidRequestError,
        (e) => assert.deepEqual([e.code, e.param], ['token_not_found', 'token']),
      );
      await rejectsWith(chargeToken('tok_sim_doesnotexist'), GatewayInvalidRequestError, (e) => assert.equal(e.code, 'token_not_found'));
    });

    const base = { merchantId: 'merch_x', amount: 100, currency: 'ISK', description: 'd', idempotencyKey: 'k' };
    const bad: Array<[string, Record<string, unknown>, string]> = [
      ['a zero amount', { amount: 0 }, 'amount'],
      ['a fractional amount', { amount: 10.5 }, 'amount'],
      ['an unsafe amount', { amount: 2 ** 53 }, 'amount'],
      ['an unsupported currency', { currency: 'XYZ' }, 'currency'],
      ['a lower-case currency', { currency: 'isk' }, 'currency'],
      ['a missing idempotency key', { idempotencyKey: '' }, 'idempotencyKey'],
      ['a missing merchant', { merchantId: '' }, 'merchantId'],
      ['a too long description', { description: 'x'.repeat(1001) }, 'description'],
    ];
    for (const [name, change, param] of bad) {
      it(`refuses ${name}`, async () => {
        await rejectsWith(sim.charge({ ...base, token: 'tok_sim_x', ...change } as any), GatewayInvalidRequestError, (e) => assert.equal(e.param, param));
      });
    }
    it('refuses both or neither of token and card', async () => {
      await rejectsWith(sim.charge({ ...base, token: 'tok_sim_x', card: card('4242424242424242') } as any), GatewayInvalidRequestError, (e) => assert.equal(e.param, 'token'));
      await rejectsWith(sim.charge({ ...base } as any), GatewayInvalidRequestError, (e) => assert.equal(e.param, 'token'));
    });
  });

  it('listCharges shows the merchant’s charges only, newest first, with refunded amounts', async () => {
    const m = (await newMerchant(env)).id;
    const first = await sim.charge({ merchantId: m, card: card('4242424242424242'), amount: 1000, currency: 'ISK', description: 'first', idempotencyKey: 'a' });
    const second = await sim.charge({ merchantId: m, card: card('4000000000000002'), amount: 2000, currency: 'ISK', description: 'second', idempotencyKey: 'b' });
    await sim.refund({ merchantId: m, chargeId: (first as any).chargeId, amount: 400, idempotencyKey: 'r' });
    const list = await sim.listCharges(m);
    // newest first (two charges in the same millisecond may come in either order)
    assert.ok(list[0]!.createdAt.getTime() >= list[1]!.createdAt.getTime());
    assert.deepEqual(
      list.map((c) => [c.chargeId, c.status, c.amount, c.refundedAmount, c.description, c.declineCode]).sort((a, b) => String(a[4]).localeCompare(String(b[4]))),
      [
        [(first as any).chargeId, 'succeeded', 1000, 400, 'first', null],
        [(second as any).chargeId, 'declined', 2000, 0, 'second', 'card_declined'],
      ],
    );
    assert.deepEqual(await sim.listCharges((await newMerchant(env)).id), []);
  });
});
