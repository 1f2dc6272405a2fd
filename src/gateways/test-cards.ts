// The simulator's test cards: the ONLY numbers test mode accepts (any other valid number is
// declined, as real acquirers do in test mode), so no real card number is ever stored.
// docs/test-cards.md documents each one; test/gateways/card-simulator.test.ts proves each.
import type { CardBrand, CardDeclineCode } from './card-acquirer';

export type TestCardBehaviour =
  /** Tokenizes and charges successfully. */
  | { kind: 'success' }
  /** Declined wherever the card is presented: tokenization (saving) and one-off charges. */
  | { kind: 'decline'; code: Extract<CardDeclineCode, 'card_declined' | 'insufficient_funds' | 'expired_card' | 'incorrect_cvc' | 'processing_error'> }
  /** Saves fine; every charge is declined with card_declined. */
  | { kind: 'decline_charges' }
  /** Saves fine; charges with its token are declined with insufficient_funds until a test helper sets the token's behaviour to 'succeed'. */
  | { kind: 'insufficient_funds_until_recovered' }
  /** Charges succeed, but the acquirer answers only after `slowDelayMs`; a retry with the same key gets the recorded success at once. */
  | { kind: 'slow' }
  /** The first charge attempt per idempotency key throws a transient error having recorded no charge; the next attempt succeeds. */
  | { kind: 'transient_first_attempt' }
  /** Charges succeed; every refund of them fails with expired_or_canceled_card. */
  | { kind: 'refunds_fail' };

export interface TestCard {
  number: string;
  brand: Exclude<CardBrand, 'unknown'>;
  behaviour: TestCardBehaviour;
  description: string;
}

export const TEST_CARDS: readonly TestCard[] = [
  { number: '4242424242424242', brand: 'visa', behaviour: { kind: 'success' }, description: 'Visa: succeeds' },
  { number: '4000056655665556', brand: 'visa', behaviour: { kind: 'success' }, description: 'Visa debit: succeeds' },
  { number: '5555555555554444', brand: 'mastercard', behaviour: { kind: 'success' }, description: 'Mastercard: succeeds' },
  { number: '2223003122003222', brand: 'mastercard', behaviour: { kind: 'success' }, description: 'Mastercard (2-series): succeeds' },
  { number: '378282246310005', brand: 'amex', behaviour: { kind: 'success' }, description: 'American Express: succeeds (4-digit CVC)' },
  { number: '6011111111111117', brand: 'discover', behaviour: { kind: 'success' }, description: 'Discover: succeeds' },
  { number: '3566002020360505', brand: 'jcb', behaviour: { kind: 'success' }, description: 'JCB: succeeds' },
  { number: '36227206271667', brand: 'diners', behaviour: { kind: 'success' }, description: 'Diners Club (14 digits): succeeds' },
  { number: '6200000000000005', brand: 'unionpay', behaviour: { kind: 'success' }, description: 'UnionPay: succeeds' },
  { number: '4000000000000002', brand: 'visa', behaviour: { kind: 'decline', code: 'card_declined' }, description: 'Generic decline' },
  { number: '4000000000009995', brand: 'visa', behaviour: { kind: 'decline', code: 'insufficient_funds' }, description: 'Insufficient funds' },
  { number: '4000000000000069', brand: 'visa', behaviour: { kind: 'decline', code: 'expired_card' }, description: 'Expired card (whatever expiry date is typed)' },
  { number: '4000000000000127', brand: 'visa', behaviour: { kind: 'decline', code: 'incorrect_cvc' }, description: 'Incorrect CVC (whatever CVC is typed)' },
  { number: '4000000000000119', brand: 'visa', behaviour: { kind: 'decline', code: 'processing_error' }, description: 'Processing error' },
  { number: '4000000000000341', brand: 'visa', behaviour: { kind: 'decline_charges' }, description: 'Saves fine; every later charge is declined (card_declined)' },
  {
    number: '4000000000000259',
    brand: 'visa',
    behaviour: { kind: 'insufficient_funds_until_recovered' },
    description: "Saves fine; charges declined (insufficient_funds) until setCardBehaviour(token, 'succeed')",
  },
  { number: '4000000000003220', brand: 'visa', behaviour: { kind: 'slow' }, description: 'Slow: the charge succeeds after slowDelayMs (default 35 s)' },
  {
    number: '4000000000005126',
    brand: 'visa',
    behaviour: { kind: 'transient_first_attempt' },
    description: 'First charge attempt per idempotency key times out (thrown, nothing recorded); the retry succeeds',
  },
  { number: '4000000000007726', brand: 'visa', behaviour: { kind: 'refunds_fail' }, description: 'Charges succeed; refunds fail (expired_or_canceled_card)' },
];

const BY_NUMBER: ReadonlyMap<string, TestCard> = new Map(TEST_CARDS.map((c) => [c.number, c]));

/** The test card for a normalised (digits-only) number, if it is one. */
export function findTestCard(digits: string): TestCard | undefined {
  return BY_NUMBER.get(digits);
}
