// Icelandic banks' claim systems (kröfur), as the rest of the service sees them: a claim
// against a kennitala for an amount in ISK, due on `dueDate`, payable until `expiresAt`
// (niðurfellingardagur; none means payable until paid or cancelled). The payer pays it in
// their online bank; we learn of it by reading the claim.
//
// Time is a parameter: `now` decides whether an open claim has expired, so test clocks can
// drive it. Creating is idempotent per merchant and idempotencyKey (same key, same claim).
// Errors are thrown as in card-acquirer.ts: GatewayInvalidRequestError (bad input, unknown
// claim; not retryable), GatewayUnavailableError (retryable), AdapterNotConfiguredError.

export type BankClaimStatus = 'open' | 'paid' | 'expired' | 'cancelled';

export interface CreateClaimInput {
  merchantId: string;
  /** Any accepted kennitala form (DDMMYYNNNN, DDMMYY-NNNN); stored as ten digits. */
  kennitala: string;
  /** Positive whole krónur. */
  amount: number;
  /** 'ISK' only: the claim systems carry no other currency. */
  currency: string;
  dueDate: Date;
  /** Final payment date; null or absent: the claim never expires. Not before dueDate. */
  expiresAt?: Date | null;
  /** Our reference shown to the payer in their bank (e.g. the invoice number), 1–64 characters. */
  reference: string;
  idempotencyKey: string;
}

export interface BankClaim {
  claimId: string;
  merchantId: string;
  kennitala: string;
  amount: number;
  currency: 'ISK';
  dueDate: Date;
  expiresAt: Date | null;
  reference: string;
  /** The bank's own identifier of the claim (bank-ledger-number), shown in the payer's bank. */
  bankReference: string;
  /** As of the `now` of the call that read it. */
  status: BankClaimStatus;
  paidAt: Date | null;
  paidAmount: number | null;
  cancelledAt: Date | null;
}

export interface GetClaimInput {
  merchantId: string;
  claimId: string;
  /** The time the status is evaluated at (a test clock's time); defaults to the adapter's clock. */
  now?: Date;
}

export interface CancelClaimInput {
  merchantId: string;
  claimId: string;
  idempotencyKey: string;
  now?: Date;
}

export interface BankClaims {
  readonly kind: 'simulator' | 'live' | 'unconfigured';
  /** A new claim is `open`; a repeated key returns the existing claim as it stands now. */
  createClaim(input: CreateClaimInput & { now?: Date }): Promise<BankClaim>;
  getClaim(input: GetClaimInput): Promise<BankClaim>;
  /**
   * Cancels an open claim and returns it `cancelled`. A claim that is already cancelled, paid
   * or expired is returned unchanged (check `status`): cancelling is safe to repeat.
   */
  cancelClaim(input: CancelClaimInput): Promise<BankClaim>;
}
