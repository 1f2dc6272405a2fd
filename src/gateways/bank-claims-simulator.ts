// The test-mode bank claim system. A claim stays `open` until a test helper pays it
// (payClaim), it is cancelled, or the caller's `now` reaches `expiresAt`. `expired` is derived
// at read time from the `now` passed in (a test clock's time), never from the wall clock
// inside the decision; the default clock is used only when a caller passes no time.
import { createHash } from 'node:crypto';
import type { Db } from '../db/client';
import { checkKennitala } from '../validation';
import type { BankClaim, BankClaims, BankClaimStatus, CancelClaimInput, CreateClaimInput, GetClaimInput } from './bank-claims';
import type { SimulatorConfig } from './config';
import { GatewayIdempotencyKeyReusedError, GatewayInvalidRequestError, GatewayRefusedError, GatewayUnavailableError } from './errors';
import { takeSimulatorFault } from './simulator-faults';
import { requestHash, requireAmount, requireDate, requireString, simulatorId } from './simulator-support';
import type { SimBankClaim } from '../generated/prisma/client';

const SYSTEM = 'bank_claims' as const;

/** The most a single simulated claim may carry (ISK); more is refused (`amount_invalid`). */
export const MAX_CLAIM_AMOUNT = 100_000_000;

/**
 * Test kennitölur the simulated bank refuses as a real one would (docs/test-cards.md "Bank
 * claims"). They pass the service's kennitala rule, so the API accepts them: only the bank says no.
 */
export const REFUSED_KENNITOLUR: Readonly<Record<string, { code: string; message: string }>> = {
  '1111111119': { code: 'payer_not_found', message: 'The bank refused the claim: no payer with this kennitala is in the national register.' },
  '1212121219': { code: 'account_closed', message: "The bank refused the claim: the payer's account for claims is closed." },
};

/** The status of a stored claim at `now`: an open claim past its final date is expired. Pure. */
export function claimStatusAt(row: Pick<SimBankClaim, 'status' | 'expiresAt'>, now: Date): BankClaimStatus {
  if (row.status === 'open' && row.expiresAt !== null && now.getTime() >= row.expiresAt.getTime()) return 'expired';
  return row.status;
}

/**
 * The bank's claim identifier, bank (4 digits) - ledger 66 (claims) - number (6 digits),
 * derived from the merchant and idempotency key: deterministic, for display only.
 */
export function simulatedBankReference(merchantId: string, idempotencyKey: string): string {
  const n = createHash('sha256').update(`${merchantId}\u0000${idempotencyKey}`).digest().readUInt32BE(0) % 1_000_000;
  return `0133-66-${String(n).padStart(6, '0')}`;
}

function toClaim(row: SimBankClaim, now: Date): BankClaim {
  return {
    claimId: row.id,
    merchantId: row.merchantId,
    kennitala: row.kennitala,
    amount: Number(row.amount),
    currency: 'ISK',
    dueDate: row.dueDate,
    expiresAt: row.expiresAt,
    reference: row.reference,
    bankReference: row.bankReference,
    status: claimStatusAt(row, now),
    paidAt: row.paidAt,
    paidAmount: row.paidAmount === null ? null : Number(row.paidAmount),
    cancelledAt: row.cancelledAt,
  };
}

export class BankClaimsSimulator implements BankClaims {
  readonly kind = 'simulator' as const;
  private readonly clock: () => Date;

  constructor(
    private readonly db: Db,
    config: SimulatorConfig = {},
  ) {
    this.clock = config.now ?? (() => new Date());
  }

  async createClaim(input: CreateClaimInput & { now?: Date }): Promise<BankClaim> {
    const fault = typeof input.merchantId === 'string' ? takeSimulatorFault(input.merchantId, 'claim.create') : null;
    switch (fault) {
      case null:
        return this.createOnce(input);
      case 'declined':
        throw new GatewayRefusedError(SYSTEM, 'claim_refused', 'The bank refused the claim (simulated fault).', 'kennitala');
      case 'invalid_request':
        throw new GatewayInvalidRequestError(SYSTEM, 'request_rejected', 'The bank rejected the claim request (simulated fault); no claim was created.');
      case 'transient':
        throw new GatewayUnavailableError(SYSTEM, 'unavailable', 'The bank is unavailable (simulated fault); no claim was created. Retry with the same idempotency key.');
      case 'timeout':
        await this.createOnce(input);
        throw new GatewayUnavailableError(
          SYSTEM,
          'timeout',
          'The bank did not answer in time (simulated fault); the claim may have been created. Retry with the same idempotency key.',
        );
      case 'duplicate': {
        const [, second] = await Promise.all([this.createOnce(input), this.createOnce(input)]);
        return second;
      }
    }
  }

  private async createOnce(input: CreateClaimInput & { now?: Date }): Promise<BankClaim> {
    const merchantId = requireString(SYSTEM, input.merchantId, 'merchantId');
    const idempotencyKey = requireString(SYSTEM, input.idempotencyKey, 'idempotencyKey');
    if (input.currency !== 'ISK') {
      throw new GatewayInvalidRequestError(SYSTEM, 'currency_not_supported', `bank claims are in ISK only, got ${String(input.currency)}`, 'currency');
    }
    const kt = typeof input.kennitala === 'string' ? checkKennitala(input.kennitala) : ({ ok: false, message: 'kennitala must be a string' } as const);
    if (!kt.ok) throw new GatewayInvalidRequestError(SYSTEM, 'kennitala_invalid', kt.message, 'kennitala');
    const refusal = REFUSED_KENNITOLUR[kt.value];
    if (refusal) throw new GatewayRefusedError(SYSTEM, refusal.code, refusal.message, 'kennitala');
    const amount = requireAmount(SYSTEM, input.amount);
    if (amount > MAX_CLAIM_AMOUNT) {
      throw new GatewayRefusedError(
        SYSTEM,
        'amount_invalid',
        `The bank refused the claim: ${amount} ISK is more than the ${MAX_CLAIM_AMOUNT} ISK a single claim may carry.`,
        'amount',
      );
    }
    const dueDate = requireDate(SYSTEM, input.dueDate, 'dueDate');
    const expiresAt = input.expiresAt === undefined || input.expiresAt === null ? null : requireDate(SYSTEM, input.expiresAt, 'expiresAt');
    if (expiresAt && expiresAt.getTime() < dueDate.getTime()) {
      throw new GatewayInvalidRequestError(SYSTEM, 'parameter_invalid', 'expiresAt must not be before dueDate', 'expiresAt');
    }
    const reference = requireString(SYSTEM, input.reference, 'reference', 64);
    const now = this.timeOf(input.now);

    const hash = requestHash(['claim', kt.value, amount, 'ISK', dueDate.toISOString(), expiresAt?.toISOString() ?? null, reference]);
    const [created] = await this.db.simBankClaim.createManyAndReturn({
      data: [
        {
          id: simulatorId('clm_sim'),
          merchantId,
          idempotencyKey,
          requestHash: hash,
          kennitala: kt.value,
          amount: BigInt(amount),
          currency: 'ISK',
          dueDate,
          expiresAt,
          reference,
          bankReference: simulatedBankReference(merchantId, idempotencyKey),
        },
      ],
      skipDuplicates: true,
    });
    const row = created ?? (await this.db.simBankClaim.findUniqueOrThrow({ where: { merchantId_idempotencyKey: { merchantId, idempotencyKey } } }));
    if (row.requestHash !== hash) throw new GatewayIdempotencyKeyReusedError(SYSTEM, idempotencyKey);
    return toClaim(row, now);
  }

  async getClaim(input: GetClaimInput): Promise<BankClaim> {
    const fault = typeof input.merchantId === 'string' ? takeSimulatorFault(input.merchantId, 'claim.get') : null;
    switch (fault) {
      case null:
      case 'duplicate': // a read asked twice is the same read
        return toClaim(await this.findClaim(input.merchantId, input.claimId), this.timeOf(input.now));
      case 'declined': {
        // The bank cancelled the claim on its side (the payer disputed it): it stays cancelled.
        const now = this.timeOf(input.now);
        const row = await this.findClaim(input.merchantId, input.claimId);
        await this.db.simBankClaim.updateMany({ where: { id: row.id, status: 'open' }, data: { status: 'cancelled', cancelledAt: now, cancelIdempotencyKey: `bank:${row.id}` } });
        return toClaim(await this.findClaim(input.merchantId, input.claimId), now);
      }
      case 'invalid_request':
        throw new GatewayInvalidRequestError(SYSTEM, 'request_rejected', 'The bank rejected the claim read (simulated fault).');
      case 'transient':
      case 'timeout':
        throw new GatewayUnavailableError(SYSTEM, fault === 'timeout' ? 'timeout' : 'unavailable', 'The bank did not answer (simulated fault). Retry.');
    }
  }

  async cancelClaim(input: CancelClaimInput): Promise<BankClaim> {
    const idempotencyKey = requireString(SYSTEM, input.idempotencyKey, 'idempotencyKey');
    const now = this.timeOf(input.now);
    const row = await this.findClaim(input.merchantId, input.claimId);
    // Only a claim that is open at `now` is cancelled; the conditional update makes a race
    // with payClaim end in exactly one of the two.
    await this.db.simBankClaim.updateMany({
      where: { id: row.id, status: 'open', OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] },
      data: { status: 'cancelled', cancelledAt: now, cancelIdempotencyKey: idempotencyKey },
    });
    return toClaim(await this.findClaim(input.merchantId, input.claimId), now);
  }

  // ---- Simulator-only helpers (for tests and the test-helper routes) ----

  /**
   * The payer pays the claim in their bank at `at` (default: the simulator clock), the full
   * amount unless `amount` says otherwise. Paying a paid claim returns it unchanged; a
   * cancelled claim, or one expired at `at`, cannot be paid (GatewayInvalidRequestError
   * 'claim_not_payable').
   */
  async payClaim(input: { merchantId: string; claimId: string; at?: Date; amount?: number }): Promise<BankClaim> {
    const at = this.timeOf(input.at);
    const row = await this.findClaim(input.merchantId, input.claimId);
    const amount = input.amount === undefined ? row.amount : BigInt(requireAmount(SYSTEM, input.amount));
    // Conditional update: a race with cancelClaim (or a second payClaim) ends in one outcome.
    await this.db.simBankClaim.updateMany({
      where: { id: row.id, status: 'open', OR: [{ expiresAt: null }, { expiresAt: { gt: at } }] },
      data: { status: 'paid', paidAt: at, paidAmount: amount },
    });
    const after = await this.findClaim(input.merchantId, input.claimId);
    const status = claimStatusAt(after, at);
    if (status === 'cancelled' || status === 'expired') {
      throw new GatewayInvalidRequestError(SYSTEM, 'claim_not_payable', `claim ${after.id} is ${status} and can no longer be paid`, 'claimId');
    }
    return toClaim(after, at);
  }

  /** The merchant's claims, newest first, with status as of `now`. */
  async listClaims(merchantId: string, opts: { now?: Date; limit?: number } = {}): Promise<BankClaim[]> {
    const now = this.timeOf(opts.now);
    const rows = await this.db.simBankClaim.findMany({
      where: { merchantId },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: Math.min(Math.max(opts.limit ?? 100, 1), 1000),
    });
    return rows.map((r) => toClaim(r, now));
  }

  // ---- internals ----

  private timeOf(at: Date | undefined): Date {
    return at === undefined ? this.clock() : requireDate(SYSTEM, at, 'now');
  }

  private async findClaim(merchantId: string, claimId: string): Promise<SimBankClaim> {
    const row = typeof claimId === 'string' && typeof merchantId === 'string' ? await this.db.simBankClaim.findFirst({ where: { id: claimId, merchantId } }) : null;
    // Another merchant's claim is unknown here, exactly like one that never existed.
    if (!row) throw new GatewayInvalidRequestError(SYSTEM, 'claim_not_found', `No such claim: '${String(claimId)}'`, 'claimId');
    return row;
  }
}
