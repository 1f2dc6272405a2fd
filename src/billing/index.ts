// Pure billing math: money, rounding, periods, proration, tiers, discounts and invoice totals.
// No I/O, no clock, no randomness, no imports outside src/billing: Temporal workflows import it.
export * from './currency';
export * from './money-format';
export * from './rounding';
export * from './periods';
export * from './proration';
export * from './tiers';
export * from './discounts';
export * from './invoice-lines';
export * from './subscription-invoice';
export * from './vat';
export * from './invoice-amounts';
export { assertSafeInteger, assertNonNegativeSafeInteger } from './integers';
