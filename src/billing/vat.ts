// VAT (virðisaukaskattur) per invoice line. Pure: no I/O, no clock (docs/vat.md).
//
// Rates: a line carries a rate IDENTIFIER (`standard`, `reduced`, `exempt`); the merchant's VAT
// country turns it into a rate in basis points (hundredths of a percent: 24 % = 2400).
//
// THE VAT rounding rule: VAT is computed once per line, on the line's exact amount, and rounded
// half away from zero to the currency's minor unit (roundRatio, the service's one rule):
//   prices include VAT:  vat = round(amount × bp / (10000 + bp)),  net = amount − vat
//   prices exclude VAT:  vat = round(amount × bp / 10000),         net = amount, gross = amount + vat
// The invoice's VAT per rate is the SUM of its lines' VAT (never recomputed from a subtotal), so
// lines, breakdown and totals always add up. Credits (negative lines) mirror charges exactly.
//
// Discounts: an invoice-level discount is split over the rates in proportion to each rate's
// positive line sum (largest remainder, exact), and each share becomes a discount line at that
// rate with its own VAT under the same rule.
//
// Credit invoices: when the lines less the discount come to 0 or less (the credit is carried to
// the next invoice, where it is taxed as a negative line), or when VAT added on top would take
// the total below 0, no VAT is charged on any line of the invoice.
import { assertNonNegativeSafeInteger, assertSafeInteger, toSafeNumber } from './integers';
import { roundRatio } from './rounding';

export const VAT_RATE_IDS = ['standard', 'reduced', 'exempt'] as const;
export type VatRateId = (typeof VAT_RATE_IDS)[number];

export const VAT_COUNTRIES = ['IS'] as const;
export type VatCountry = (typeof VAT_COUNTRIES)[number];

/** Basis points (1/100 of a percent) per country and identifier. */
const RATES: Readonly<Record<VatCountry, Readonly<Record<VatRateId, number>>>> = {
  // Iceland: almennt þrep 24 %, lægra þrep 11 % (food, books, accommodation, …), undanþegið 0 %.
  IS: { standard: 2400, reduced: 1100, exempt: 0 },
};

export function isVatRateId(value: unknown): value is VatRateId {
  return typeof value === 'string' && (VAT_RATE_IDS as readonly string[]).includes(value);
}

export function isVatCountry(value: unknown): value is VatCountry {
  return typeof value === 'string' && (VAT_COUNTRIES as readonly string[]).includes(value);
}

/** The rate of an identifier in a country, in basis points (IS standard → 2400). */
export function vatBasisPoints(country: VatCountry, rate: VatRateId): number {
  if (!isVatCountry(country)) throw new RangeError(`unsupported VAT country: ${String(country)}`);
  if (!isVatRateId(rate)) throw new RangeError(`unknown VAT rate identifier: ${String(rate)}`);
  return RATES[country][rate];
}

/** The rate as a percent number for display (2400 → 24, 1150 → 11.5). */
export function basisPointsToPercent(bp: number): number {
  assertNonNegativeSafeInteger(bp, 'basis points');
  return bp / 100;
}

/** Every identifier of a country with its rate, in identifier order. */
export function vatRatesOf(country: VatCountry): Array<{ rate: VatRateId; basisPoints: number }> {
  return VAT_RATE_IDS.map((rate) => ({ rate, basisPoints: vatBasisPoints(country, rate) }));
}

export interface LineVat {
  /** The amount without VAT. */
  readonly net: number;
  readonly vat: number;
  /** The amount with VAT. */
  readonly gross: number;
}

/** VAT of one amount at `basisPoints`, under the rule at the top of this file. */
export function lineVat(amount: number, basisPoints: number, pricesIncludeVat: boolean): LineVat {
  assertSafeInteger(amount, 'amount');
  assertNonNegativeSafeInteger(basisPoints, 'basisPoints');
  if (typeof pricesIncludeVat !== 'boolean') throw new TypeError('pricesIncludeVat must be a boolean');
  const a = BigInt(amount);
  const bp = BigInt(basisPoints);
  if (pricesIncludeVat) {
    const vat = roundRatio(a * bp, 10_000n + bp);
    // 0 + x turns a -0 into 0
    return { net: 0 + toSafeNumber(a - vat, 'net'), vat: 0 + toSafeNumber(vat, 'vat'), gross: amount };
  }
  const vat = roundRatio(a * bp, 10_000n);
  return { net: amount, vat: 0 + toSafeNumber(vat, 'vat'), gross: toSafeNumber(a + vat, 'gross') };
}

/**
 * Splits `total` (≥ 0) over `weights` (≥ 0) in proportion, exactly: each share is the floor of
 * total × weight / Σweights, and the units left over go one each to the largest remainders
 * (ties: the earlier weight). Shares sum to `total`. All weights 0 → all shares 0 (total must be 0).
 */
export function allocateProportionally(total: number, weights: readonly number[]): number[] {
  assertNonNegativeSafeInteger(total, 'total');
  weights.forEach((w, i) => assertNonNegativeSafeInteger(w, `weight ${i + 1}`));
  const sum = weights.reduce((s, w) => s + BigInt(w), 0n);
  if (sum === 0n) {
    if (total !== 0) throw new RangeError('cannot allocate a non-zero total over zero weights');
    return weights.map(() => 0);
  }
  const t = BigInt(total);
  const shares = weights.map((w) => (t * BigInt(w)) / sum);
  const remainders = weights.map((w, i) => ({ i, r: (t * BigInt(w)) % sum }));
  let left = t - shares.reduce((s, x) => s + x, 0n);
  remainders.sort((a, b) => (a.r === b.r ? a.i - b.i : a.r > b.r ? -1 : 1));
  for (const { i } of remainders) {
    if (left === 0n) break;
    shares[i] += 1n;
    left -= 1n;
  }
  return shares.map((s) => toSafeNumber(s, 'share'));
}

export interface VatInvoiceLineInput {
  readonly amount: number;
  readonly rate: VatRateId;
}

export interface VatInvoiceLine extends LineVat {
  readonly rate: VatRateId;
  readonly basisPoints: number;
  /** The line amount as priced (gross when prices include VAT, net when they exclude it). */
  readonly amount: number;
}

export interface VatBreakdownRow {
  readonly rate: VatRateId;
  readonly basisPoints: number;
  readonly net: number;
  readonly vat: number;
  readonly gross: number;
}

export interface VatInvoiceInput {
  readonly country: VatCountry;
  readonly pricesIncludeVat: boolean;
  readonly lines: readonly VatInvoiceLineInput[];
  /** The invoice discount as a positive amount (0 for none), in the same terms as the lines. */
  readonly discount: number;
}

export interface VatInvoice {
  readonly lines: readonly VatInvoiceLine[];
  /** One negative line per rate that carries a share of the discount (rate order). */
  readonly discountLines: readonly VatInvoiceLine[];
  /** Per rate present on the invoice, in identifier order: sums of the lines above. */
  readonly breakdown: readonly VatBreakdownRow[];
  readonly vat: number;
  /** Σ net of every line (discount lines included). */
  readonly net: number;
  /**
   * What the customer owes: Σ gross of every line, but never below 0 (a credit invoice).
   * Equals net + vat whenever it is above 0.
   */
  readonly total: number;
  /** True when the invoice is a credit invoice and carries no VAT (see the rule above). */
  readonly vatWaived: boolean;
}

function rateOrder(rate: VatRateId): number {
  return VAT_RATE_IDS.indexOf(rate);
}

/** VAT for every line of an invoice, its discount lines and its breakdown per rate. */
export function applyVat(input: VatInvoiceInput): VatInvoice {
  const { country, pricesIncludeVat } = input;
  assertNonNegativeSafeInteger(input.discount, 'discount');
  input.lines.forEach((l, i) => {
    assertSafeInteger(l.amount, `line ${i + 1}: amount`);
    if (!isVatRateId(l.rate)) throw new RangeError(`line ${i + 1}: unknown VAT rate identifier ${String(l.rate)}`);
  });

  // The discount's share per rate, in proportion to each rate's positive line sum.
  const rates = [...new Set(input.lines.map((l) => l.rate))].sort((a, b) => rateOrder(a) - rateOrder(b));
  const sumByRate = rates.map((rate) => input.lines.filter((l) => l.rate === rate).reduce((s, l) => s + BigInt(l.amount), 0n));
  const weights = sumByRate.map((s) => (s > 0n ? toSafeNumber(s, 'rate subtotal') : 0));
  if (input.discount > 0 && weights.every((w) => w === 0)) throw new RangeError('a discount needs lines that charge something');
  const shares = input.discount > 0 ? allocateProportionally(input.discount, weights) : rates.map(() => 0);

  const linesSum = sumByRate.reduce((s, x) => s + x, 0n);
  const netOfDiscount = linesSum - BigInt(input.discount);

  const compute = (waive: boolean) => {
    const at = (amount: number, rate: VatRateId): VatInvoiceLine => {
      const bp = vatBasisPoints(country, rate);
      const v = waive ? { net: amount, vat: 0, gross: amount } : lineVat(amount, bp, pricesIncludeVat);
      return { ...v, rate, basisPoints: bp, amount };
    };
    const lines = input.lines.map((l) => at(l.amount, l.rate));
    const discountLines = rates.flatMap((rate, i) => (shares[i]! > 0 ? [at(-shares[i]!, rate)] : []));
    return { lines, discountLines };
  };

  let waived = netOfDiscount <= 0n;
  let { lines, discountLines } = compute(waived);
  const grossOf = (ls: readonly VatInvoiceLine[]) => ls.reduce((s, l) => s + BigInt(l.gross), 0n);
  if (!waived && grossOf(lines) + grossOf(discountLines) <= 0n) {
    waived = true;
    ({ lines, discountLines } = compute(true));
  }
  const all = [...lines, ...discountLines];
  const breakdown = rates.map((rate) => {
    const of = all.filter((l) => l.rate === rate);
    const sum = (k: 'net' | 'vat' | 'gross') =>
      toSafeNumber(
        of.reduce((s, l) => s + BigInt(l[k]), 0n),
        `${rate} ${k}`,
      );
    return { rate, basisPoints: vatBasisPoints(country, rate), net: sum('net'), vat: sum('vat'), gross: sum('gross') };
  });
  const vat = toSafeNumber(
    all.reduce((s, l) => s + BigInt(l.vat), 0n),
    'vat',
  );
  const net = toSafeNumber(
    all.reduce((s, l) => s + BigInt(l.net), 0n),
    'net',
  );
  const gross = grossOf(all);
  return { lines, discountLines, breakdown, vat, net, total: gross > 0n ? toSafeNumber(gross, 'total') : 0, vatWaived: waived };
}

/**
 * VAT of a credit note (a refund of part or all of what an invoice charged): the credited
 * amount, which includes VAT, is split over the invoice's groups (per rate, or per rate and
 * ledger account) in proportion to their gross amounts (allocateProportionally), and each
 * share carries the group's own VAT ratio: vat = round(share × group.vat / group.gross). A full
 * credit therefore returns exactly the VAT the invoice charged. Groups with gross ≤ 0 get nothing.
 */
export function creditNoteVat<G extends { readonly vat: number; readonly gross: number }>(amount: number, groups: readonly G[]): Array<G & { readonly share: LineVat }> {
  assertNonNegativeSafeInteger(amount, 'amount');
  const weights = groups.map((g) => (g.gross > 0 ? g.gross : 0));
  if (weights.every((w) => w === 0)) {
    if (amount === 0) return groups.map((g) => ({ ...g, share: { net: 0, vat: 0, gross: 0 } }));
    throw new RangeError('a credit note needs an invoice that charged something');
  }
  const shares = allocateProportionally(amount, weights);
  return groups.map((g, i) => {
    const gross = shares[i]!;
    const vat = g.gross > 0 ? 0 + toSafeNumber(roundRatio(BigInt(gross) * BigInt(g.vat), BigInt(g.gross)), 'vat') : 0;
    return { ...g, share: { net: gross - vat, vat, gross } };
  });
}

/**
 * What a credit invoice (its lines came to `−credit` < 0, so it charges nothing and no VAT)
 * carries to the next invoice, per VAT rate: each rate's line sum, when not 0, in identifier
 * order. The amounts sum to `−credit`, and each keeps its rate, so the next invoice credits
 * (or charges) every rate exactly what this one left out: a credit for unused 11 % time stays an
 * 11 % credit, and in a mixed change a 24 % credit is not netted against an 11 % charge.
 */
export function carriedBalanceByRate(credit: number, lines: readonly VatInvoiceLineInput[]): Array<{ rate: VatRateId; amount: number }> {
  assertNonNegativeSafeInteger(credit, 'credit');
  if (credit === 0) return [];
  const rates = [...new Set(lines.map((l) => l.rate))].sort((a, b) => rateOrder(a) - rateOrder(b));
  const sums = rates
    .map((rate) => ({
      rate,
      amount: toSafeNumber(
        lines.filter((l) => l.rate === rate).reduce((s, l) => s + BigInt(l.amount), 0n),
        'rate sum',
      ),
    }))
    .filter((r) => r.amount !== 0);
  if (sums.reduce((s, r) => s + r.amount, 0) !== -credit) throw new RangeError('the carried credit must be what the lines sum to');
  return sums;
}
