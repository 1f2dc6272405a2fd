// Invoice totals from lines. All amounts are integers in minor units; sums are exact (BigInt).
//
//   subtotal = sum of line amounts (proration credits make lines, and so the subtotal, negative)
//   discount = applyDiscount(subtotal, discount), 0 when the subtotal is 0 or less
//   total    = subtotal − discount, but never below 0: when the lines credit more than they
//              charge, total is 0 and the excess is reported as credit_carried_forward (a positive
//              number the caller carries to the customer's next invoice, as Stripe's customer
//              balance does). So always: total − credit_carried_forward === subtotal − discount,
//              and at most one of total and credit_carried_forward is non-zero.
import { Discount, applyDiscount } from './discounts';
import { toSafeNumber } from './integers';

export interface AmountLine {
  readonly amount: number;
}

export interface InvoiceTotals {
  readonly subtotal: number;
  readonly discount: number;
  readonly total: number;
  readonly credit_carried_forward: number;
}

/** Exact sum of the line amounts; throws on a non-integer amount or a sum beyond the safe range. */
export function sumLines(lines: readonly AmountLine[]): number {
  let sum = 0n;
  lines.forEach((line, i) => {
    if (!Number.isSafeInteger(line.amount)) {
      throw new RangeError(`line ${i + 1}: amount must be a safe integer, got ${String(line.amount)}`);
    }
    sum += BigInt(line.amount);
  });
  return toSafeNumber(sum, 'sum of lines');
}

/** Subtotal, discount, total and credit carried forward of an invoice's lines. */
export function totals(lines: readonly AmountLine[], discount?: Discount | null): InvoiceTotals {
  const subtotal = sumLines(lines);
  const discountAmount = discount === undefined || discount === null ? 0 : applyDiscount(subtotal, discount);
  const net = subtotal - discountAmount;
  return {
    subtotal,
    discount: discountAmount,
    total: Math.max(net, 0),
    credit_carried_forward: net < 0 ? -net : 0,
  };
}
