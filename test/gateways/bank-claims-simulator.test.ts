// The bank claim simulator against the real database: idempotent creation, payment by the
// test helper, expiry decided by the caller's `now` (times far from the wall clock prove that
// no decision reads it), cancellation, validation, tenancy.
import assert from 'node:assert/strict';
import { testEnv, type TestEnv } from '../support/env';
import { newMerchant } from '../support/api';
import { checkKennitala, validateKennitala } from '../../src/validation';
import {
  createBankClaims,
  GatewayIdempotencyKeyReusedError,
  GatewayInvalidRequestError,
  GatewayRefusedError,
  GatewayUnavailableError,
  MAX_CLAIM_AMOUNT,
  planSimulatorFault,
  plannedFaults,
  REFUSED_KENNITOLUR,
  type BankClaimsSimulator,
  type CreateClaimInput,
} from '../../src/gateways';

const KT_PERSON = '120174-3399';
const KT_COMPANY = '4504013150';
const d = (iso: string) => new Date(iso);

async function rejectsWithCode(p: Promise<unknown>, code: string, param?: string): Promise<void> {
  await assert.rejects(p, (e: unknown) => {
    assert.ok(e instanceof GatewayInvalidRequestError, `expected GatewayInvalidRequestError, got ${(e as Error)?.name}: ${(e as Error)?.message}`);
    assert.equal(e.code, code);
    if (param !== undefined) assert.equal(e.param, param);
    assert.equal(e.retryable, false);
    return true;
  });
}

describe('gateways: bank claims simulator', () => {
  let env: TestEnv;
  let merchantId: string;
  let otherMerchantId: string;
  let claims: BankClaimsSimulator;
  let n = 0;

  before(async () => {
    env = await testEnv();
    merchantId = (await newMerchant(env)).id;
    otherMerchantId = (await newMerchant(env)).id;
    // The default clock is pinned far away: any decision that used it instead of the `now`
    // passed in would come out wrong below.
    claims = createBankClaims({ mode: 'test', db: env.db, config: { simulator: { now: () => d('1999-01-01T00:00:00Z') } } });
  });

  function input(change: Partial<CreateClaimInput> = {}): CreateClaimInput {
    return {
      merchantId,
      kennitala: KT_PERSON,
      amount: 12_990,
      currency: 'ISK',
      dueDate: d('2031-03-01T00:00:00Z'),
      expiresAt: d('2031-06-01T00:00:00Z'),
      reference: `INV-${++n}`,
      idempotencyKey: `claim-${process.pid}-${n}`,
      ...change,
    };
  }

  it('creates an open claim with a bank reference; the kennitala is stored as ten digits', async () => {
    const claim = await claims.createClaim({ ...input(), now: d('2031-02-01T00:00:00Z') });
    assert.match(claim.claimId, /^clm_sim_/);
    assert.equal(claim.status, 'open');
    assert.match(claim.bankReference, /^0133-66-\d{6}$/);
    assert.equal(claim.kennitala, validateKennitala(KT_PERSON).ok && '1201743399');
    assert.deepEqual([claim.amount, claim.currency, claim.paidAt, claim.paidAmount, claim.cancelledAt], [12_990, 'ISK', null, null, null]);
    assert.equal(claim.dueDate.toISOString(), '2031-03-01T00:00:00.000Z');
    assert.equal(claim.expiresAt?.toISOString(), '2031-06-01T00:00:00.000Z');
    const read = await claims.getClaim({ merchantId, claimId: claim.claimId, now: d('2031-02-02T00:00:00Z') });
    assert.deepEqual(read, claim);
  });

  it('accepts a company kennitala and a claim that never expires', async () => {
    const claim = await claims.createClaim(input({ kennitala: KT_COMPANY, expiresAt: null }));
    assert.equal(claim.kennitala, KT_COMPANY);
    assert.equal(claim.expiresAt, null);
    assert.equal((await claims.getClaim({ merchantId, claimId: claim.claimId, now: d('2999-01-01T00:00:00Z') })).status, 'open');
  });

  it('creating with the same key, even concurrently, gives the same claim', async () => {
    const req = input();
    const results = await Promise.all(Array.from({ length: 10 }, () => claims.createClaim(req)));
    for (const r of results) assert.deepEqual(r, results[0]);
    assert.equal(await env.db.simBankClaim.count({ where: { merchantId, idempotencyKey: req.idempotencyKey } }), 1);
    // the kennitala in another accepted form is the same request
    assert.equal((await claims.createClaim({ ...req, kennitala: KT_PERSON.replace('-', '') })).claimId, results[0]!.claimId);
    await assert.rejects(claims.createClaim({ ...req, amount: 1 }), GatewayIdempotencyKeyReusedError);
    await assert.rejects(claims.createClaim({ ...req, reference: 'OTHER' }), GatewayIdempotencyKeyReusedError);
    // keys are per merchant
    const theirs = await claims.createClaim({ ...req, merchantId: otherMerchantId });
    assert.notEqual(theirs.claimId, results[0]!.claimId);
  });

  it('a repeated create returns the claim as it stands (paid)', async () => {
    const req = input();
    const claim = await claims.createClaim(req);
    await claims.payClaim({ merchantId, claimId: claim.claimId, at: d('2031-02-10T00:00:00Z') });
    const again = await claims.createClaim({ ...req, now: d('2031-02-11T00:00:00Z') });
    assert.deepEqual([again.claimId, again.status], [claim.claimId, 'paid']);
  });

  it('stays open until paid through the simulator helper; paying twice changes nothing', async () => {
    const claim = await claims.createClaim(input());
    assert.equal((await claims.getClaim({ merchantId, claimId: claim.claimId, now: d('2031-05-31T23:59:59Z') })).status, 'open');
    const paid = await claims.payClaim({ merchantId, claimId: claim.claimId, at: d('2031-03-05T10:00:00Z') });
    assert.deepEqual([paid.status, paid.paidAt?.toISOString(), paid.paidAmount], ['paid', '2031-03-05T10:00:00.000Z', 12_990]);
    const again = await claims.payClaim({ merchantId, claimId: claim.claimId, at: d('2031-03-09T10:00:00Z') });
    assert.deepEqual(again, paid);
    // paid before the final date: still paid after it
    assert.equal((await claims.getClaim({ merchantId, claimId: claim.claimId, now: d('2040-01-01T00:00:00Z') })).status, 'paid');
  });

  it('records a payment of another amount (e.g. with late interest)', async () => {
    const claim = await claims.createClaim(input());
    const paid = await claims.payClaim({ merchantId, claimId: claim.claimId, at: d('2031-04-01T00:00:00Z'), amount: 13_250 });
    assert.equal(paid.paidAmount, 13_250);
    await rejectsWithCode(
      claims.payClaim({ merchantId, claimId: (await claims.createClaim(input())).claimId, at: d('2031-04-01T00:00:00Z'), amount: 0 }),
      'parameter_invalid',
      'amount',
    );
  });

  it('expires when the caller’s now reaches expiresAt, and can then not be paid', async () => {
    const claim = await claims.createClaim(input());
    const at = (iso: string) => claims.getClaim({ merchantId, claimId: claim.claimId, now: d(iso) });
    assert.equal((await at('2031-05-31T23:59:59.999Z')).status, 'open');
    assert.equal((await at('2031-06-01T00:00:00.000Z')).status, 'expired');
    assert.equal((await at('2032-01-01T00:00:00.000Z')).status, 'expired');
    // time is a parameter: an earlier now still sees it open
    assert.equal((await at('2031-04-01T00:00:00.000Z')).status, 'open');
    await rejectsWithCode(claims.payClaim({ merchantId, claimId: claim.claimId, at: d('2031-06-01T00:00:00Z') }), 'claim_not_payable', 'claimId');
    // paying before the final date still works (a payment the bank recorded in time)
    const paid = await claims.payClaim({ merchantId, claimId: claim.claimId, at: d('2031-05-30T00:00:00Z') });
    assert.equal(paid.status, 'paid');
  });

  it('the simulator clock is used only when no time is passed', async () => {
    const claim = await claims.createClaim(input({ dueDate: d('1998-10-01T00:00:00Z'), expiresAt: d('1998-12-31T00:00:00Z') }));
    // default clock: 1999-01-01, past the final date
    assert.equal(claim.status, 'expired');
    assert.equal((await claims.getClaim({ merchantId, claimId: claim.claimId })).status, 'expired');
    assert.equal((await claims.getClaim({ merchantId, claimId: claim.claimId, now: d('1998-12-01T00:00:00Z') })).status, 'open');
    await rejectsWithCode(claims.payClaim({ merchantId, claimId: claim.claimId }), 'claim_not_payable');
  });

  it('cancels an open claim; cancelling again, or a paid or expired claim, changes nothing', async () => {
    const claim = await claims.createClaim(input());
    const cancelled = await claims.cancelClaim({ merchantId, claimId: claim.claimId, idempotencyKey: 'cancel-1', now: d('2031-03-10T00:00:00Z') });
    assert.deepEqual([cancelled.status, cancelled.cancelledAt?.toISOString()], ['cancelled', '2031-03-10T00:00:00.000Z']);
    const again = await claims.cancelClaim({ merchantId, claimId: claim.claimId, idempotencyKey: 'cancel-1', now: d('2031-03-11T00:00:00Z') });
    assert.deepEqual(again, cancelled);
    await rejectsWithCode(claims.payClaim({ merchantId, claimId: claim.claimId, at: d('2031-03-12T00:00:00Z') }), 'claim_not_payable');

    const paidClaim = await claims.createClaim(input());
    await claims.payClaim({ merchantId, claimId: paidClaim.claimId, at: d('2031-03-01T00:00:00Z') });
    const notCancelled = await claims.cancelClaim({ merchantId, claimId: paidClaim.claimId, idempotencyKey: 'cancel-2', now: d('2031-03-10T00:00:00Z') });
    assert.deepEqual([notCancelled.status, notCancelled.cancelledAt], ['paid', null]);

    const expiring = await claims.createClaim(input());
    const expired = await claims.cancelClaim({ merchantId, claimId: expiring.claimId, idempotencyKey: 'cancel-3', now: d('2031-07-01T00:00:00Z') });
    assert.deepEqual([expired.status, expired.cancelledAt], ['expired', null]);
  });

  it('a race between paying and cancelling ends in exactly one of them', async () => {
    const claim = await claims.createClaim(input());
    const [pay, cancel] = await Promise.allSettled([
      claims.payClaim({ merchantId, claimId: claim.claimId, at: d('2031-03-10T00:00:00Z') }),
      claims.cancelClaim({ merchantId, claimId: claim.claimId, idempotencyKey: 'race', now: d('2031-03-10T00:00:00Z') }),
    ]);
    const final = await claims.getClaim({ merchantId, claimId: claim.claimId, now: d('2031-03-10T00:00:00Z') });
    if (final.status === 'paid') {
      assert.equal(pay.status, 'fulfilled');
      assert.equal(cancel.status === 'fulfilled' && cancel.value.status, 'paid');
      assert.equal(final.cancelledAt, null);
    } else {
      assert.equal(final.status, 'cancelled');
      assert.equal(pay.status, 'rejected');
      assert.equal(final.paidAt, null);
    }
  });

  describe('refuses bad requests', () => {
    const cases: Array<[string, Partial<CreateClaimInput>, string, string]> = [
      ['EUR', { currency: 'EUR' }, 'currency_not_supported', 'currency'],
      ['lower-case isk', { currency: 'isk' }, 'currency_not_supported', 'currency'],
      ['a kennitala with an impossible date', { kennitala: '3102743399' }, 'kennitala_invalid', 'kennitala'],
      ['a kennitala of nine digits', { kennitala: '120174339' }, 'kennitala_invalid', 'kennitala'],
      ['a non-string kennitala', { kennitala: 1201743399 as unknown as string }, 'kennitala_invalid', 'kennitala'],
      ['a zero amount', { amount: 0 }, 'parameter_invalid', 'amount'],
      ['a fractional amount', { amount: 100.5 }, 'parameter_invalid', 'amount'],
      ['an invalid due date', { dueDate: new Date('nope') }, 'parameter_invalid', 'dueDate'],
      ['an expiry before the due date', { expiresAt: d('2031-02-01T00:00:00Z') }, 'parameter_invalid', 'expiresAt'],
      ['an empty reference', { reference: '' }, 'parameter_invalid', 'reference'],
      ['a reference over 64 characters', { reference: 'x'.repeat(65) }, 'parameter_invalid', 'reference'],
      ['an empty idempotency key', { idempotencyKey: '' }, 'parameter_invalid', 'idempotencyKey'],
    ];
    for (const [name, change, code, param] of cases) {
      it(name, async () => {
        const req = input(change);
        await rejectsWithCode(claims.createClaim(req), code, param);
        assert.equal(await env.db.simBankClaim.count({ where: { merchantId, idempotencyKey: req.idempotencyKey } }), 0);
      });
    }
    it('the kennitala message is the service rule’s (checkKennitala)', async () => {
      const res = checkKennitala('3102743399');
      assert.equal(res.ok, false);
      await assert.rejects(claims.createClaim(input({ kennitala: '3102743399' })), (e: Error) => !res.ok && e.message === res.message);
    });
    it('one kennitala rule: a wrong check digit, which the API accepts, is accepted here too', async () => {
      assert.equal(validateKennitala('1203894569').ok, false);
      assert.equal(checkKennitala('1203894569').ok, true);
      const claim = await claims.createClaim(input({ kennitala: '120389-4569' }));
      assert.deepEqual([claim.status, claim.kennitala], ['open', '1203894569']);
    });
  });

  describe('what the bank refuses (GatewayRefusedError, not retryable, nothing recorded)', () => {
    for (const [kt, refusal] of Object.entries(REFUSED_KENNITOLUR)) {
      it(`${kt}: ${refusal.code}`, async () => {
        assert.equal(checkKennitala(kt).ok, true, 'the API accepts it');
        const req = input({ kennitala: kt });
        await assert.rejects(claims.createClaim(req), (e: unknown) => e instanceof GatewayRefusedError && e.code === refusal.code && e.message === refusal.message && !e.retryable);
        assert.equal(await env.db.simBankClaim.count({ where: { merchantId, idempotencyKey: req.idempotencyKey } }), 0);
      });
    }
    it('an amount over the most a claim may carry: amount_invalid', async () => {
      await assert.rejects(claims.createClaim(input({ amount: MAX_CLAIM_AMOUNT + 1 })), (e: unknown) => e instanceof GatewayRefusedError && e.code === 'amount_invalid');
    });
  });

  describe('planned faults', () => {
    it('transient: unavailable before anything happens, then the same key works', async () => {
      planSimulatorFault({ merchantId, operation: 'claim.create', kind: 'transient', times: 2 });
      const req = input();
      for (let i = 0; i < 2; i++) await assert.rejects(claims.createClaim(req), (e: unknown) => e instanceof GatewayUnavailableError);
      assert.equal(await env.db.simBankClaim.count({ where: { merchantId, idempotencyKey: req.idempotencyKey } }), 0);
      assert.equal((await claims.createClaim(req)).status, 'open');
      assert.equal(plannedFaults(merchantId, 'claim.create'), 0);
    });
    it('timeout: the claim is created but the answer is lost; the retry gets the same claim', async () => {
      planSimulatorFault({ merchantId, operation: 'claim.create', kind: 'timeout' });
      const req = input();
      await assert.rejects(claims.createClaim(req), (e: unknown) => e instanceof GatewayUnavailableError && e.reason === 'timeout');
      const row = await env.db.simBankClaim.findFirstOrThrow({ where: { merchantId, idempotencyKey: req.idempotencyKey } });
      assert.equal((await claims.createClaim(req)).claimId, row.id);
    });
    it('duplicate: the request arrives twice; one claim', async () => {
      planSimulatorFault({ merchantId, operation: 'claim.create', kind: 'duplicate' });
      const req = input();
      const claim = await claims.createClaim(req);
      assert.equal(await env.db.simBankClaim.count({ where: { merchantId, idempotencyKey: req.idempotencyKey } }), 1);
      assert.equal((await claims.createClaim(req)).claimId, claim.claimId);
    });
    it('declined and invalid_request on create; declined on read cancels the claim at the bank', async () => {
      planSimulatorFault({ merchantId, operation: 'claim.create', kind: 'declined' });
      planSimulatorFault({ merchantId, operation: 'claim.create', kind: 'invalid_request' });
      await assert.rejects(claims.createClaim(input()), (e: unknown) => e instanceof GatewayRefusedError && e.code === 'claim_refused');
      await rejectsWithCode(claims.createClaim(input()), 'request_rejected');
      const claim = await claims.createClaim(input());
      planSimulatorFault({ merchantId, operation: 'claim.get', kind: 'declined' });
      const read = await claims.getClaim({ merchantId, claimId: claim.claimId, now: d('2031-03-02T00:00:00Z') });
      assert.equal(read.status, 'cancelled');
      assert.equal((await claims.getClaim({ merchantId, claimId: claim.claimId, now: d('2031-03-03T00:00:00Z') })).status, 'cancelled');
    });
  });

  it("an unknown or another merchant's claim is not found", async () => {
    const claim = await claims.createClaim(input());
    await rejectsWithCode(claims.getClaim({ merchantId: otherMerchantId, claimId: claim.claimId }), 'claim_not_found', 'claimId');
    await rejectsWithCode(claims.getClaim({ merchantId, claimId: 'clm_sim_nope' }), 'claim_not_found');
    await rejectsWithCode(claims.payClaim({ merchantId: otherMerchantId, claimId: claim.claimId }), 'claim_not_found');
    await rejectsWithCode(claims.cancelClaim({ merchantId: otherMerchantId, claimId: claim.claimId, idempotencyKey: 'c' }), 'claim_not_found');
    assert.equal((await claims.getClaim({ merchantId, claimId: claim.claimId, now: d('2031-03-01T00:00:00Z') })).status, 'open');
  });

  it('listClaims shows the merchant’s claims only, with status as of now', async () => {
    const m = (await newMerchant(env)).id;
    const a = await claims.createClaim(input({ merchantId: m }));
    const b = await claims.createClaim(input({ merchantId: m }));
    await claims.payClaim({ merchantId: m, claimId: b.claimId, at: d('2031-03-01T00:00:00Z') });
    const list = await claims.listClaims(m, { now: d('2031-07-01T00:00:00Z') });
    assert.deepEqual(
      list.map((c) => [c.claimId, c.status]).sort(),
      [
        [a.claimId, 'expired'],
        [b.claimId, 'paid'],
      ].sort(),
    );
  });
});
