// Benchmark: exact decimals for metering (issue 29 item 6). src/metering/decimal.ts (a bigint
// coefficient and a scale, written for metering) against two well-kept libraries, big.js and
// decimal.js, over the same event mix, in one run, each library configured to stay exact:
//  - validate: a metadata value (JSON number or decimal string) to a decimal, as ingestion checks
//    every event (numericDecimal: strings by the NUMERIC_TEXT guard, numbers by their shortest
//    round-trip text, checked against the guard);
//  - sum, max/min: over every value, as aggregateEvents and billableQuantity do;
//  - finish: avg to 12 significant digits (half away from zero, never dropping integer digits),
//    times the unit multiplier, to plain text without exponent;
// and checks that every library gives the hand module's quantities. Prints the time of each part
// per library and the ratio library ÷ hand module (below 1 means the library is faster).
// Run: `node dist/bench/run.js decimal` (after a build), or `npm run bench -- decimal`; no database.
import Big from 'big.js';
import DecimalJs from 'decimal.js';
import { AVG_SIGNIFICANT_DIGITS, NUMERIC_TEXT, numericDecimal } from '../src/metering/aggregate';
import { type Decimal, addDecimals, compareDecimals, decimalToString, divideToSignificant, multiplyDecimal } from '../src/metering/decimal';
import { fmt } from './support';

const VALUES = Number(process.env.BENCH_DECIMAL_VALUES ?? 200_000);
const ROUNDS = Number(process.env.BENCH_DECIMAL_ROUNDS ?? 5);
const MULTIPLIER = 1000;

/**
 * A usage mix: mostly small whole numbers sent as JSON numbers (API calls, seats), prices and
 * volumes with cents or millis, as numbers and as strings, and a few long exact strings.
 */
export function eventMix(n: number): unknown[] {
  let seed = 29;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const out: unknown[] = [];
  for (let i = 0; i < n; i++) {
    const r = random();
    if (r < 0.4) out.push(1 + Math.floor(random() * 1000));
    else if (r < 0.6) out.push(Math.round(random() * 1_000_000) / 100);
    else if (r < 0.85) out.push((random() * 10_000).toFixed(3));
    else if (r < 0.95) out.push(String(Math.floor(random() * 100_000)));
    else out.push(`${Math.floor(random() * 1e9)}${Math.floor(random() * 1e9)}.${Math.floor(random() * 1e6)}`);
  }
  return out;
}

/** One implementation of what metering needs. */
interface Arithmetic<D> {
  name: string;
  parse(raw: unknown): D | null;
  add(a: D, b: D): D;
  compare(a: D, b: D): number;
  /** avg of `sum` over `count` values, times the multiplier, as plain text. */
  finishAvg(sum: D, count: number): string;
  /** times the multiplier, as plain text. */
  finish(d: D): string;
}

const hand: Arithmetic<Decimal> = {
  name: 'src/metering/decimal.ts',
  parse: numericDecimal,
  add: addDecimals,
  compare: compareDecimals,
  finishAvg: (sum, count) => decimalToString(multiplyDecimal(divideToSignificant(sum, BigInt(count), AVG_SIGNIFICANT_DIGITS), BigInt(MULTIPLIER))),
  finish: (d) => decimalToString(multiplyDecimal(d, BigInt(MULTIPLIER))),
};

/** A library's numericDecimal: the NUMERIC_TEXT guard on strings, and on numbers' plain text. */
function guardedParse<D extends { toFixed(): string }>(make: (value: string | number) => D): (raw: unknown) => D | null {
  return (raw) => {
    if (typeof raw === 'string') return NUMERIC_TEXT.test(raw) ? make(raw) : null;
    if (typeof raw !== 'number' || !Number.isFinite(raw)) return null;
    const d = make(raw);
    return NUMERIC_TEXT.test(d.toFixed()) ? d : null;
  };
}

// big.js: + − × are exact whatever the settings; plain text from toFixed() (never exponents).
const BigExact = Big();
BigExact.DP = 60;
BigExact.RM = BigExact.roundHalfUp;
const bigJs: Arithmetic<Big> = {
  name: 'big.js 7.0.1',
  parse: guardedParse((v) => new BigExact(v)),
  add: (a, b) => a.plus(b),
  compare: (a, b) => a.cmp(b),
  finishAvg(sum, count) {
    const q = sum.div(count);
    const integerDigits = q.abs().round(0, BigExact.roundDown).toFixed().replace(/^0$/, '').length;
    return q.prec(Math.max(AVG_SIGNIFICANT_DIGITS, integerDigits), BigExact.roundHalfUp).times(MULTIPLIER).toFixed();
  },
  finish: (d) => d.times(MULTIPLIER).toFixed(),
};

// decimal.js: exact only with a precision wider than any sum (1e9 significant digits, its maximum).
const DecimalExact = DecimalJs.clone({ precision: 1e9, rounding: DecimalJs.ROUND_HALF_UP, toExpPos: 9e15, toExpNeg: -9e15 });
type DecimalExact = InstanceType<typeof DecimalExact>;
const decimalJs: Arithmetic<DecimalExact> = {
  name: 'decimal.js 10.6.0',
  parse: guardedParse((v) => new DecimalExact(v)),
  add: (a, b) => a.plus(b),
  compare: (a, b) => a.cmp(b),
  finishAvg(sum, count) {
    const q = sum.div(count);
    const integerDigits = q.abs().trunc().isZero() ? 0 : q.abs().trunc().toFixed().length;
    return q.toSignificantDigits(Math.max(AVG_SIGNIFICANT_DIGITS, integerDigits), DecimalJs.ROUND_HALF_UP).times(MULTIPLIER).toFixed();
  },
  finish: (d) => d.times(MULTIPLIER).toFixed(),
};

interface Timings {
  validate: number;
  sum: number;
  extremes: number;
  finish: number;
  results: string[];
}

function timed<T>(f: () => T): [T, number] {
  const start = process.hrtime.bigint();
  const value = f();
  return [value, Number(process.hrtime.bigint() - start) / 1e6];
}

function runOnce<D>(a: Arithmetic<D>, raw: unknown[]): Timings {
  const [parsed, validate] = timed(() => raw.map((r) => a.parse(r)).filter((d): d is D => d !== null));
  const [total, sum] = timed(() => parsed.reduce((x, y) => a.add(x, y)));
  const [[max, min], extremes] = timed(() => {
    let hi = parsed[0] as D;
    let lo = parsed[0] as D;
    for (const d of parsed) {
      if (a.compare(d, hi) > 0) hi = d;
      if (a.compare(d, lo) < 0) lo = d;
    }
    return [hi, lo];
  });
  // The finish runs once per period in billing; repeated here so its time is measurable.
  const [results, finish] = timed(() => {
    let out: string[] = [];
    for (let i = 0; i < 1000; i++) out = [a.finish(total), a.finish(max), a.finish(min), a.finishAvg(total, parsed.length)];
    return out;
  });
  return { validate, sum, extremes, finish, results: [String(parsed.length), ...results] };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

export async function main(): Promise<void> {
  const raw = eventMix(VALUES);
  const impls: Array<Arithmetic<any>> = [hand, bigJs, decimalJs];
  const samples = new Map<string, Timings[]>(impls.map((a) => [a.name, []]));
  // Interleaved rounds (after one warm-up each), so a busy machine slows every implementation alike.
  for (const a of impls) runOnce(a, raw.slice(0, 10_000));
  for (let round = 0; round < ROUNDS; round++) for (const a of impls) samples.get(a.name)!.push(runOnce(a, raw));

  const expected = samples.get(hand.name)![0]!.results;
  console.log(`${fmt(VALUES)} values (${ROUNDS} rounds, median ms); quantities: ${expected.join(' | ')}`);
  const parts = ['validate', 'sum', 'extremes', 'finish'] as const;
  const medians = (name: string) => Object.fromEntries(parts.map((p) => [p, median(samples.get(name)!.map((t) => t[p]))])) as Record<(typeof parts)[number], number>;
  const base = medians(hand.name);
  const baseTotal = parts.reduce((s, p) => s + base[p], 0);
  for (const a of impls) {
    const m = medians(a.name);
    const total = parts.reduce((s, p) => s + m[p], 0);
    const exact = samples.get(a.name)!.every((t) => JSON.stringify(t.results) === JSON.stringify(expected));
    const cells = parts.map((p) => `${p} ${fmt(m[p], 1)} (×${fmt(m[p] / base[p], 2)})`).join(', ');
    console.log(`${a.name.padEnd(24)} ${cells}; total ${fmt(total, 1)} ms, ratio ${fmt(total / baseTotal, 2)}; same quantities: ${exact ? 'yes' : 'NO'}`);
    if (!exact) console.log(`  ${a.name} gave ${samples.get(a.name)![0]!.results.join(' | ')}`);
  }
}
