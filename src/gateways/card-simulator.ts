// The test-mode card acquirer: behaves like a real one, deterministically by card number and
// idempotency key (docs/test-cards.md). State lives in PostgreSQL (gateways.prisma) so that
// deduplication survives worker restarts and holds across processes: every write is an
// INSERT .. ON CONFLICT DO NOTHING on UNIQUE(merchant_id, idempotency_key), and whoever loses
// the race reads the winner's row. The simulator writes through the root client, never the
// caller's transaction: an outside system's records do not roll back with ours.
import type { Db } from '../db/client';
import { isSupportedCurrency } from '../billing/currency';
import type {
  CardAcquirer,
  CardDeclineCode,
  ChargeInput,
  ChargeResult,
  ChargedCard,
  RefundFailureCode,
  RefundInput,
  RefundResult,
  SavedCard,
  TokenizeCardInput,
  TokenizeCardResult,
  Wallet,
} from './card-acquirer';
import { checkCardFormat, normalizeCardNumber } from './cards';
import { DEFAULT_SLOW_DELAY_MS, type SimulatorConfig } from './config';
import { GatewayIdempotencyKeyReusedError, GatewayInvalidRequestError, GatewayUnavailableError } from './errors';
import { requestHash, requireAmount, requireString, simulatorId, sleep, TX_OPTIONS } from './simulator-support';
import { findTestCard, type TestCardBehaviour } from './test-cards';
import { takeSimulatorFault } from './simulator-faults';
import { camelRow } from '../db/raw-rows';
import type { SimCardToken, SimCharge, SimRefund } from '../generated/prisma/client';

/** Test-helper override of a saved card's charge outcome; 'default' goes back to its number's. */
export type CardBehaviourOverride = 'default' | 'succeed' | 'card_declined' | 'insufficient_funds';
export const CARD_BEHAVIOUR_OVERRIDES: readonly CardBehaviourOverride[] = ['default', 'succeed', 'card_declined', 'insufficient_funds'];

export interface SimulatedCharge {
  chargeId: string;
  idempotencyKey: string;
  token: string | null;
  card: ChargedCard;
  amount: number;
  currency: string;
  description: string;
  status: 'succeeded' | 'declined';
  declineCode: CardDeclineCode | null;
  /** Sum of the charge's succeeded refunds. */
  refundedAmount: number;
  createdAt: Date;
}

export interface SimulatedRefund {
  refundId: string;
  idempotencyKey: string;
  chargeId: string;
  amount: number;
  status: 'succeeded' | 'failed';
  failureCode: RefundFailureCode | null;
  createdAt: Date;
}

const SYSTEM = 'card_acquirer' as const;
const WALLETS: readonly Wallet[] = ['apple_pay', 'google_pay'];

const DECLINE_MESSAGES: Readonly<Record<CardDeclineCode, string>> = {
  invalid_number: 'The card number is not a valid card number.',
  invalid_expiry: "The card's expiration date is invalid.",
  expired_card: 'The card has expired.',
  invalid_cvc: "The card's security code is invalid.",
  incorrect_cvc: "The card's security code is incorrect.",
  card_declined: 'The card was declined.',
  insufficient_funds: 'The card has insufficient funds.',
  processing_error: 'An error occurred while processing the card. Try again in a little while.',
};

const NOT_A_TEST_CARD = 'The card was declined: test mode accepts only the simulator test cards (docs/test-cards.md).';

type ChargeOutcome = { status: 'succeeded'; slow: boolean; transientFirstAttempt: boolean } | { status: 'declined'; code: CardDeclineCode };

/** The acquirer's answer to a charge, from the card's behaviour and a saved card's override. Pure. */
export function decideCharge(behaviour: TestCardBehaviour, override: CardBehaviourOverride | null): ChargeOutcome {
  const ok = { status: 'succeeded', slow: false, transientFirstAttempt: false } as const;
  if (override === 'succeed') return ok;
  if (override === 'card_declined' || override === 'insufficient_funds') return { status: 'declined', code: override };
  switch (behaviour.kind) {
    case 'success':
    case 'refunds_fail':
      return ok;
    case 'decline':
      return { status: 'declined', code: behaviour.code };
    case 'decline_charges':
      return { status: 'declined', code: 'card_declined' };
    case 'insufficient_funds_until_recovered':
      return { status: 'declined', code: 'insufficient_funds' };
    case 'slow':
      return { ...ok, slow: true };
    case 'transient_first_attempt':
      return { ...ok, transientFirstAttempt: true };
  }
}

function walletOf(value: unknown): Wallet | null {
  if (value === undefined || value === null) return null;
  if (!WALLETS.includes(value as Wallet)) {
    throw new GatewayInvalidRequestError(SYSTEM, 'parameter_invalid', `wallet must be one of ${WALLETS.join(', ')}`, 'wallet');
  }
  return value as Wallet;
}

function decline(code: CardDeclineCode, message = DECLINE_MESSAGES[code]) {
  return { status: 'declined' as const, code, message };
}

function savedCard(row: SimCardToken): SavedCard {
  return { token: row.token, brand: row.brand as SavedCard['brand'], last4: row.last4, expMonth: row.expMonth, expYear: row.expYear, wallet: row.wallet };
}

function chargedCard(row: Pick<SimCharge, 'brand' | 'last4' | 'wallet'>): ChargedCard {
  return { brand: row.brand as ChargedCard['brand'], last4: row.last4, wallet: row.wallet };
}

function chargeResult(row: SimCharge): ChargeResult {
  if (row.status === 'succeeded') {
    return { status: 'succeeded', chargeId: row.id, amount: Number(row.amount), currency: row.currency, card: chargedCard(row) };
  }
  const code = row.declineCode as CardDeclineCode;
  return { ...decline(code, row.declineMessage ?? DECLINE_MESSAGES[code]), chargeId: row.id, card: chargedCard(row) };
}

function refundResult(row: SimRefund): RefundResult {
  if (row.status === 'succeeded') return { status: 'succeeded', refundId: row.id, amount: Number(row.amount) };
  return { status: 'failed', refundId: row.id, code: row.failureCode as RefundFailureCode, message: row.failureMessage ?? '' };
}

export class CardSimulator implements CardAcquirer {
  readonly kind = 'simulator' as const;
  private readonly slowDelayMs: number;
  private readonly now: () => Date;

  constructor(
    private readonly db: Db,
    config: SimulatorConfig = {},
  ) {
    this.slowDelayMs = config.slowDelayMs ?? DEFAULT_SLOW_DELAY_MS;
    this.now = config.now ?? (() => new Date());
  }

  /**
   * Saves a card as a reusable token, after the checks an acquirer makes when a card is
   * attached (format, expiry, CVC, and the card's own decline). Declined tokenizations are
   * not recorded: they are decided by the input alone and come out the same on a retry.
   */
  async tokenizeCard(input: TokenizeCardInput): Promise<TokenizeCardResult> {
    const merchantId = requireString(SYSTEM, input.merchantId, 'merchantId');
    const idempotencyKey = requireString(SYSTEM, input.idempotencyKey, 'idempotencyKey');
    const wallet = walletOf(input.wallet);
    const holderName = input.holderName === undefined ? null : requireString(SYSTEM, input.holderName, 'holderName', 200);
    const format = checkCardFormat(input, this.now());
    if (!format.ok) return decline(format.code, format.message);
    const testCard = findTestCard(format.number);
    if (!testCard) return decline('card_declined', NOT_A_TEST_CARD);
    if (testCard.behaviour.kind === 'decline') return decline(testCard.behaviour.code);

    const hash = requestHash(['tokenize', format.number, format.expMonth, format.expYear, wallet, holderName]);
    const [created] = await this.db.simCardToken.createManyAndReturn({
      data: [
        {
          token: simulatorId('tok_sim'),
          merchantId,
          idempotencyKey,
          requestHash: hash,
          number: format.number,
          brand: format.brand,
          last4: format.last4,
          expMonth: format.expMonth,
          expYear: format.expYear,
          holderName,
          wallet,
        },
      ],
      skipDuplicates: true,
    });
    const row = created ?? (await this.db.simCardToken.findUniqueOrThrow({ where: { merchantId_idempotencyKey: { merchantId, idempotencyKey } } }));
    if (row.requestHash !== hash) throw new GatewayIdempotencyKeyReusedError(SYSTEM, idempotencyKey);
    return { status: 'succeeded', ...savedCard(row) };
  }

  async charge(input: ChargeInput): Promise<ChargeResult> {
    const fault = typeof input.merchantId === 'string' ? takeSimulatorFault(input.merchantId, 'charge') : null;
    switch (fault) {
      case null:
        return this.chargeOnce(input, null);
      case 'declined':
        return this.chargeOnce(input, 'card_declined');
      case 'invalid_request':
        throw new GatewayInvalidRequestError(SYSTEM, 'request_rejected', 'The card acquirer rejected the request (simulated fault); nothing was charged.');
      case 'transient':
        throw new GatewayUnavailableError(SYSTEM, 'unavailable', 'The card acquirer is unavailable (simulated fault); nothing was charged. Retry with the same idempotency key.');
      case 'timeout':
        await this.chargeOnce(input, null);
        throw new GatewayUnavailableError(
          SYSTEM,
          'timeout',
          'The card acquirer did not answer in time (simulated fault); the charge may have been made. Retry with the same idempotency key.',
        );
      case 'duplicate': {
        const [, second] = await Promise.all([this.chargeOnce(input, null), this.chargeOnce(input, null)]);
        return second;
      }
    }
  }

  /** One charge request as the acquirer handles it; `forcedDecline` is a planned fault's decline. */
  private async chargeOnce(input: ChargeInput, forcedDecline: CardDeclineCode | null): Promise<ChargeResult> {
    const merchantId = requireString(SYSTEM, input.merchantId, 'merchantId');
    const idempotencyKey = requireString(SYSTEM, input.idempotencyKey, 'idempotencyKey');
    const amount = requireAmount(SYSTEM, input.amount);
    if (typeof input.currency !== 'string' || !isSupportedCurrency(input.currency)) {
      throw new GatewayInvalidRequestError(SYSTEM, 'currency_not_supported', `currency ${String(input.currency)} is not supported`, 'currency');
    }
    const currency = input.currency;
    if (typeof input.description !== 'string' || input.description.length > 1000) {
      throw new GatewayInvalidRequestError(SYSTEM, 'parameter_invalid', 'description must be a string of at most 1000 characters', 'description');
    }
    const hasToken = input.token !== undefined;
    if (hasToken === (input.card !== undefined)) {
      throw new GatewayInvalidRequestError(SYSTEM, 'parameter_invalid', 'pass exactly one of token and card', 'token');
    }
    const card = input.card;
    const hash = hasToken
      ? requestHash(['charge', 'token', input.token, amount, currency])
      : requestHash(['charge', 'card', normalizeCardNumber(card!.number) ?? card!.number, card!.expMonth, card!.expYear, card!.wallet, amount, currency]);

    // An earlier answer under this key is the answer, whatever the card would do now. A token
    // charge reads the saved card in the same statement.
    const tokenArg = hasToken ? requireString(SYSTEM, input.token, 'token') : null;
    const lookup =
      tokenArg !== null ? await this.chargeAndToken(merchantId, idempotencyKey, tokenArg) : { earlier: await this.findCharge(merchantId, idempotencyKey), saved: null };
    if (lookup.earlier) return this.replayCharge(lookup.earlier, hash);

    let number: string;
    let charged: ChargedCard;
    let override: CardBehaviourOverride | null = null;
    let token: string | null = null;
    if (tokenArg !== null) {
      const saved = this.ownToken(merchantId, tokenArg, lookup.saved);
      number = saved.number;
      token = saved.token;
      charged = chargedCard(saved);
      override = (saved.behaviour as CardBehaviourOverride | null) ?? null;
    } else {
      const wallet = walletOf(card!.wallet);
      const format = checkCardFormat(card!, this.now());
      if (!format.ok) return { ...decline(format.code, format.message), chargeId: null, card: null };
      charged = { brand: format.brand, last4: format.last4, wallet };
      if (!findTestCard(format.number)) return { ...decline('card_declined', NOT_A_TEST_CARD), chargeId: null, card: charged };
      number = format.number;
    }
    const testCard = findTestCard(number)!;
    const outcome: ChargeOutcome = forcedDecline ? { status: 'declined', code: forcedDecline } : decideCharge(testCard.behaviour, override);

    if (outcome.status === 'succeeded' && outcome.transientFirstAttempt) {
      const marker = await this.db.simChargeFault.createMany({ data: [{ merchantId, idempotencyKey, kind: 'timeout' }], skipDuplicates: true });
      if (marker.count === 1) {
        throw new GatewayUnavailableError(SYSTEM, 'timeout', 'The card acquirer did not answer in time (simulated); no charge was made. Retry with the same idempotency key.');
      }
    }

    const declineCode = outcome.status === 'declined' ? outcome.code : null;
    const [created] = await this.db.simCharge.createManyAndReturn({
      data: [
        {
          id: simulatorId('ch_sim'),
          merchantId,
          idempotencyKey,
          requestHash: hash,
          token,
          number,
          brand: charged.brand,
          last4: charged.last4,
          wallet: charged.wallet,
          amount: BigInt(amount),
          currency,
          description: input.description,
          status: outcome.status,
          declineCode,
          declineMessage: declineCode ? DECLINE_MESSAGES[declineCode] : null,
        },
      ],
      skipDuplicates: true,
    });
    if (!created) {
      // A concurrent call with the same key won: its row is the answer.
      return this.replayCharge(await this.db.simCharge.findUniqueOrThrow({ where: { merchantId_idempotencyKey: { merchantId, idempotencyKey } } }), hash);
    }
    // The charge is recorded (the money moved); only the answer is late. A retry meanwhile
    // finds the row and returns at once: the timeout/duplicate-request case.
    if (outcome.status === 'succeeded' && outcome.slow) await sleep(this.slowDelayMs);
    return chargeResult(created);
  }

  /**
   * Refunds part or all of a charge. The charge row is locked while the refundable remainder is
   * computed, so concurrent refunds never add up to more than the charge.
   */
  async refund(input: RefundInput): Promise<RefundResult> {
    const fault = typeof input.merchantId === 'string' ? takeSimulatorFault(input.merchantId, 'refund') : null;
    switch (fault) {
      case null:
        return this.refundOnce(input, false);
      case 'declined':
        return this.refundOnce(input, true);
      case 'invalid_request':
        throw new GatewayInvalidRequestError(SYSTEM, 'request_rejected', 'The card acquirer rejected the refund request (simulated fault); nothing was refunded.');
      case 'transient':
        throw new GatewayUnavailableError(SYSTEM, 'unavailable', 'The card acquirer is unavailable (simulated fault); nothing was refunded. Retry with the same idempotency key.');
      case 'timeout':
        await this.refundOnce(input, false);
        throw new GatewayUnavailableError(
          SYSTEM,
          'timeout',
          'The card acquirer did not answer in time (simulated fault); the refund may have been made. Retry with the same idempotency key.',
        );
      case 'duplicate': {
        const [, second] = await Promise.all([this.refundOnce(input, false), this.refundOnce(input, false)]);
        return second;
      }
    }
  }

  /** One refund request as the acquirer handles it; `refused` is a planned fault's refusal. */
  private async refundOnce(input: RefundInput, refused: boolean): Promise<RefundResult> {
    const merchantId = requireString(SYSTEM, input.merchantId, 'merchantId');
    const idempotencyKey = requireString(SYSTEM, input.idempotencyKey, 'idempotencyKey');
    const chargeId = requireString(SYSTEM, input.chargeId, 'chargeId');
    const amount = requireAmount(SYSTEM, input.amount);
    const hash = requestHash(['refund', chargeId, amount]);
    const key = { merchantId_idempotencyKey: { merchantId, idempotencyKey } };

    const earlier = await this.db.simRefund.findUnique({ where: key });
    if (earlier) return this.replayRefund(earlier, hash);

    const outcome = await this.db.$transaction(async (tx) => {
      const locked = await tx.$queryRaw<Array<{ id: string }>>`SELECT id FROM sim_charges WHERE id = ${chargeId} AND merchant_id = ${merchantId} FOR UPDATE`;
      if (locked.length === 0) return { kind: 'charge_missing' as const };
      const again = await tx.simRefund.findUnique({ where: key });
      if (again) return { kind: 'row' as const, row: again };
      const charge = await tx.simCharge.findUniqueOrThrow({ where: { id: chargeId } });

      let failure: { code: RefundFailureCode; message: string } | null = null;
      if (refused) {
        failure = { code: 'expired_or_canceled_card', message: 'The refund failed: the card has expired or was cancelled (simulated fault).' };
      } else if (charge.status !== 'succeeded') {
        failure = { code: 'charge_not_refundable', message: 'The charge was declined; there is nothing to refund.' };
      } else if (findTestCard(charge.number)?.behaviour.kind === 'refunds_fail') {
        failure = { code: 'expired_or_canceled_card', message: 'The refund failed: the card has expired or was cancelled.' };
      } else {
        const sum = await tx.simRefund.aggregate({ _sum: { amount: true }, where: { chargeId, status: 'succeeded' } });
        const refunded = sum._sum.amount ?? 0n;
        const remaining = charge.amount - refunded;
        if (BigInt(amount) > remaining) {
          failure = { code: 'amount_exceeds_refundable', message: `The refund of ${amount} exceeds the ${remaining} left to refund of the charge.` };
        }
      }
      const [created] = await tx.simRefund.createManyAndReturn({
        data: [
          {
            id: simulatorId('re_sim'),
            merchantId,
            idempotencyKey,
            requestHash: hash,
            chargeId,
            amount: BigInt(amount),
            status: failure ? 'failed' : 'succeeded',
            failureCode: failure?.code ?? null,
            failureMessage: failure?.message ?? null,
          },
        ],
        skipDuplicates: true,
      });
      // No row: the same key was just used for a refund of another charge.
      return created ? { kind: 'row' as const, row: created } : { kind: 'key_taken' as const };
    }, TX_OPTIONS);

    if (outcome.kind === 'charge_missing') {
      throw new GatewayInvalidRequestError(SYSTEM, 'charge_not_found', `No such charge: '${chargeId}'`, 'chargeId');
    }
    const row = outcome.kind === 'row' ? outcome.row : await this.db.simRefund.findUniqueOrThrow({ where: key });
    return this.replayRefund(row, hash);
  }

  // ---- Simulator-only helpers (for tests and the test-helper routes) ----

  /** Overrides a saved card's charge outcome ('default' restores its number's behaviour). */
  async setCardBehaviour(input: { merchantId: string; token: string; behaviour: CardBehaviourOverride }): Promise<SavedCard & { behaviour: CardBehaviourOverride }> {
    if (!CARD_BEHAVIOUR_OVERRIDES.includes(input.behaviour)) {
      throw new GatewayInvalidRequestError(SYSTEM, 'parameter_invalid', `behaviour must be one of ${CARD_BEHAVIOUR_OVERRIDES.join(', ')}`, 'behaviour');
    }
    const saved = await this.findToken(input.merchantId, input.token);
    const row = await this.db.simCardToken.update({
      where: { token: saved.token },
      data: { behaviour: input.behaviour === 'default' ? null : input.behaviour },
    });
    return { ...savedCard(row), behaviour: (row.behaviour as CardBehaviourOverride | null) ?? 'default' };
  }

  /** The merchant's charges (succeeded and declined), newest first. */
  async listCharges(merchantId: string, opts: { limit?: number } = {}): Promise<SimulatedCharge[]> {
    const rows = await this.db.simCharge.findMany({
      where: { merchantId },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: Math.min(Math.max(opts.limit ?? 100, 1), 1000),
      include: { refunds: { where: { status: 'succeeded' }, select: { amount: true } } },
    });
    return rows.map((r) => this.simulatedCharge(r, r.refunds));
  }

  async getCharge(merchantId: string, chargeId: string): Promise<SimulatedCharge | null> {
    const row = await this.db.simCharge.findFirst({
      where: { id: chargeId, merchantId },
      include: { refunds: { where: { status: 'succeeded' }, select: { amount: true } } },
    });
    return row ? this.simulatedCharge(row, row.refunds) : null;
  }

  /** The merchant's refund attempts (optionally of one charge), newest first. */
  async listRefunds(merchantId: string, opts: { chargeId?: string } = {}): Promise<SimulatedRefund[]> {
    const rows = await this.db.simRefund.findMany({
      where: { merchantId, ...(opts.chargeId ? { chargeId: opts.chargeId } : {}) },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: 1000,
    });
    return rows.map((r) => ({
      refundId: r.id,
      idempotencyKey: r.idempotencyKey,
      chargeId: r.chargeId,
      amount: Number(r.amount),
      status: r.status,
      failureCode: r.failureCode as RefundFailureCode | null,
      createdAt: r.createdAt,
    }));
  }

  // ---- internals ----

  private findCharge(merchantId: string, idempotencyKey: string) {
    return this.db.simCharge.findUnique({ where: { merchantId_idempotencyKey: { merchantId, idempotencyKey } } });
  }

  private async findToken(merchantId: string, token: string): Promise<SimCardToken> {
    return this.ownToken(merchantId, token, typeof token === 'string' ? await this.db.simCardToken.findUnique({ where: { token } }) : null);
  }

  /** The saved card of `token` when it is this merchant's; another merchant's token is unknown here, exactly like a token that never existed. */
  private ownToken(merchantId: string, token: string, saved: SimCardToken | null): SimCardToken {
    if (!saved || saved.merchantId !== merchantId) {
      throw new GatewayInvalidRequestError(SYSTEM, 'token_not_found', `No such card token: '${String(token)}'`, 'token');
    }
    return saved;
  }

  /** The charge under the key (if any) and the saved card of `token` (if any), in one statement. */
  private async chargeAndToken(merchantId: string, idempotencyKey: string, token: string): Promise<{ earlier: SimCharge | null; saved: SimCardToken | null }> {
    const rows = await this.db.$queryRaw<Array<Record<string, unknown>>>`
      SELECT c.*, (SELECT to_jsonb(t) FROM sim_card_tokens t WHERE t.token = ${token}) AS saved_card
        FROM (SELECT 1) AS one
        LEFT JOIN sim_charges c ON c.merchant_id = ${merchantId} AND c.idempotency_key = ${idempotencyKey}`;
    const { saved_card: card, ...charge } = rows[0]!;
    const savedRow = card as Record<string, unknown> | null;
    return {
      earlier: charge.id === null ? null : camelRow<SimCharge>(charge),
      saved: savedRow === null ? null : { ...camelRow<SimCardToken>(savedRow), createdAt: new Date(savedRow.created_at as string) },
    };
  }

  private replayCharge(row: SimCharge, hash: string): ChargeResult {
    if (row.requestHash !== hash) throw new GatewayIdempotencyKeyReusedError(SYSTEM, row.idempotencyKey);
    return chargeResult(row);
  }

  private replayRefund(row: SimRefund, hash: string): RefundResult {
    if (row.requestHash !== hash) throw new GatewayIdempotencyKeyReusedError(SYSTEM, row.idempotencyKey);
    return refundResult(row);
  }

  private simulatedCharge(row: SimCharge, refunds: Array<{ amount: bigint }>): SimulatedCharge {
    return {
      chargeId: row.id,
      idempotencyKey: row.idempotencyKey,
      token: row.token,
      card: chargedCard(row),
      amount: Number(row.amount),
      currency: row.currency,
      description: row.description,
      status: row.status,
      declineCode: row.declineCode as CardDeclineCode | null,
      refundedAmount: Number(refunds.reduce((s, r) => s + r.amount, 0n)),
      createdAt: row.createdAt,
    };
  }
}
