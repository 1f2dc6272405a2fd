// The card acquirer, as the rest of the service sees it. Test mode is served by the simulator
// (card-simulator.ts), live mode by a configured implementation or, when none is configured,
// by an adapter whose every call throws AdapterNotConfiguredError (factory.ts).
//
// Every call carries an idempotencyKey, unique per merchant and per operation (tokenize,
// charge, refund). The acquirer deduplicates on it: the same key returns the original result,
// never a second charge, even when the first caller timed out before hearing the answer. The
// same key with different parameters throws GatewayIdempotencyKeyReusedError.
//
// Outcomes the customer caused are RESULTS (declines); transient trouble (timeouts, acquirer
// down) is THROWN as GatewayUnavailableError (retryable: retry with the same key); caller bugs
// (unknown token or charge, bad amount) are THROWN as GatewayInvalidRequestError (not retryable).

export type CardBrand = 'visa' | 'mastercard' | 'amex' | 'discover' | 'jcb' | 'diners' | 'unionpay' | 'unknown';

export type Wallet = 'apple_pay' | 'google_pay';

export type CardDeclineCode =
  /** Not a card number (format, length or Luhn check). */
  | 'invalid_number'
  /** Expiry month or year out of range. */
  | 'invalid_expiry'
  /** Expiry date in the past, or the issuer says the card has expired. */
  | 'expired_card'
  /** CVC missing or of the wrong length. */
  | 'invalid_cvc'
  /** The issuer says the CVC is wrong. */
  | 'incorrect_cvc'
  | 'card_declined'
  | 'insufficient_funds'
  /** The issuer could not process the card this time; the customer may try again. */
  | 'processing_error';

export interface CardDecline {
  status: 'declined';
  code: CardDeclineCode;
  /** Safe to show to the paying customer. */
  message: string;
}

/** Card data as the customer typed it (or the wallet delivered it). */
export interface CardDetails {
  /** Spaces and hyphens are allowed and ignored. */
  number: string;
  expMonth: number;
  /** Four digits, or two (read as 20YY). */
  expYear: number;
  /** Required for cards typed in; optional for wallet payments. */
  cvc?: string;
  holderName?: string;
  wallet?: Wallet;
}

export interface TokenizeCardInput extends CardDetails {
  merchantId: string;
  idempotencyKey: string;
}

export interface SavedCard {
  token: string;
  brand: CardBrand;
  last4: string;
  expMonth: number;
  expYear: number;
  wallet: Wallet | null;
}

export type TokenizeCardResult = ({ status: 'succeeded' } & SavedCard) | CardDecline;

/** What a charge says about the card it used (for receipts and payment method details). */
export interface ChargedCard {
  brand: CardBrand;
  last4: string;
  wallet: Wallet | null;
}

export type ChargeSource = { token: string; card?: undefined } | { card: CardDetails; token?: undefined };

export type ChargeInput = ChargeSource & {
  merchantId: string;
  /** Positive integer in the currency's minor unit. */
  amount: number;
  /** Upper-case ISO code of a supported currency (src/billing/currency.ts). */
  currency: string;
  description: string;
  idempotencyKey: string;
};

export type ChargeSucceeded = { status: 'succeeded'; chargeId: string; amount: number; currency: string; card: ChargedCard };
export type ChargeDeclined = CardDecline & {
  /** The acquirer's record of the declined attempt; null when the card data was rejected before reaching it. */
  chargeId: string | null;
  card: ChargedCard | null;
};
export type ChargeResult = ChargeSucceeded | ChargeDeclined;

export interface RefundInput {
  merchantId: string;
  chargeId: string;
  /** Positive integer in the charge's currency's minor unit. */
  amount: number;
  idempotencyKey: string;
}

export type RefundFailureCode =
  /** The amount is more than what is left of the charge after earlier refunds. */
  | 'amount_exceeds_refundable'
  /** The charge was declined, so there is nothing to refund. */
  | 'charge_not_refundable'
  /** The issuer refused the refund (the card was closed). */
  | 'expired_or_canceled_card';

export type RefundResult = { status: 'succeeded'; refundId: string; amount: number } | { status: 'failed'; refundId: string; code: RefundFailureCode; message: string };

export interface CardAcquirer {
  readonly kind: 'simulator' | 'live' | 'unconfigured';
  tokenizeCard(input: TokenizeCardInput): Promise<TokenizeCardResult>;
  charge(input: ChargeInput): Promise<ChargeResult>;
  refund(input: RefundInput): Promise<RefundResult>;
}
