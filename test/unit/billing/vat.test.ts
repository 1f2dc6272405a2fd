// Table tests of the VAT rule (src/billing/vat.ts, docs/vat.md): per line, round half away from
// zero to the minor unit; breakdown and totals are sums of lines.
import assert from 'node:assert/strict';
import { allocateProportionally, applyVat, carriedBalanceByRate, creditNoteVat, lineVat, vatBasisPoints, vatRatesOf, type VatRateId } from '../../../src/billing';

describe('billing/vat', () => {
  describe('rates', () => {
    it('Iceland: standard 24 %, reduced 11 %, exempt 0 %', () => {
      assert.deepEqual(vatRatesOf('IS'), [
        { rate: 'standard', basisPoints: 2400 },
        { rate: 'reduced', basisPoints: 1100 },
        { rate: 'exempt', basisPoints: 0 },
      ]);
    });
    it('refuses unknown identifiers and countries', () => {
      assert.throws(() => vatBasisPoints('IS', 'super' as VatRateId), /unknown VAT rate/);
      assert.throws(() => vatBasisPoints('DK' as 'IS', 'standard'), /unsupported VAT country/);
    });
  });

  describe('lineVat: prices include VAT (vat = round(amount × r / (1 + r)))', () => {
    const cases: Array<[number, number, { net: number; vat: number; gross: number }]> = [
      [12400, 2400, { net: 10000, vat: 2400, gross: 12400 }],
      [1990, 2400, { net: 1605, vat: 385, gross: 1990 }], // 385.16 → 385
      [3000, 2400, { net: 2419, vat: 581, gross: 3000 }], // 580.645 → 581
      [2, 2400, { net: 2, vat: 0, gross: 2 }], // 0.387 → 0
      [31, 2400, { net: 25, vat: 6, gross: 31 }], // 6.0 exactly
      [1000, 1100, { net: 901, vat: 99, gross: 1000 }], // 99.099 → 99
      [111, 1100, { net: 100, vat: 11, gross: 111 }],
      [5000, 0, { net: 5000, vat: 0, gross: 5000 }],
      [0, 2400, { net: 0, vat: 0, gross: 0 }],
      [-3000, 2400, { net: -2419, vat: -581, gross: -3000 }], // credits mirror charges
      [-1990, 2400, { net: -1605, vat: -385, gross: -1990 }],
    ];
    for (const [amount, bp, expected] of cases) {
      it(`${amount} at ${bp / 100} % → ${JSON.stringify(expected)}`, () => assert.deepEqual(lineVat(amount, bp, true), expected));
    }
    it('never meets an exact half at the Icelandic rates (24/124 = 6/31 and 11/111 have odd denominators)', () => {
      for (let amount = -5000; amount <= 5000; amount++) {
        for (const bp of [2400, 1100]) {
          const d = 10_000 + bp;
          const exactHalf = (2 * amount * bp) % d === 0 && (amount * bp) % d !== 0;
          assert.equal(exactHalf, false, `${amount} at ${bp}`);
          assert.equal(lineVat(amount, bp, true).vat, -lineVat(-amount, bp, true).vat || 0);
        }
      }
    });
  });

  describe('lineVat: prices exclude VAT (vat = round(amount × r))', () => {
    const cases: Array<[number, number, { net: number; vat: number; gross: number }]> = [
      [10000, 2400, { net: 10000, vat: 2400, gross: 12400 }],
      [1990, 2400, { net: 1990, vat: 478, gross: 2468 }], // 477.6 → 478
      [25, 2400, { net: 25, vat: 6, gross: 31 }],
      [50, 1100, { net: 50, vat: 6, gross: 56 }], // 5.5 → 6 (half away from zero)
      [-50, 1100, { net: -50, vat: -6, gross: -56 }], // -5.5 → -6
      [150, 1100, { net: 150, vat: 17, gross: 167 }], // 16.5 → 17
      [1, 2400, { net: 1, vat: 0, gross: 1 }], // 0.24 → 0
      [3, 2400, { net: 3, vat: 1, gross: 4 }], // 0.72 → 1
      [777, 0, { net: 777, vat: 0, gross: 777 }],
    ];
    for (const [amount, bp, expected] of cases) {
      it(`${amount} at ${bp / 100} % → ${JSON.stringify(expected)}`, () => assert.deepEqual(lineVat(amount, bp, false), expected));
    }
    it('refuses non-integers', () => {
      assert.throws(() => lineVat(1.5, 2400, true), /safe integer/);
      assert.throws(() => lineVat(1, -1, true), /at least 0/);
    });
  });

  describe('allocateProportionally (largest remainder)', () => {
    const cases: Array<[number, number[], number[]]> = [
      [1100, [9000, 2000], [900, 200]],
      [100, [1, 1, 1], [34, 33, 33]], // ties go to the earlier weight
      [10, [3, 0, 7], [3, 0, 7]],
      [1, [1, 1], [1, 0]],
      [0, [5, 5], [0, 0]],
      [7, [2, 3], [3, 4]], // 2.8/4.2 → 2+1, 4
    ];
    for (const [total, weights, expected] of cases) {
      it(`${total} over ${JSON.stringify(weights)} → ${JSON.stringify(expected)}`, () => {
        const got = allocateProportionally(total, weights);
        assert.deepEqual(got, expected);
        assert.equal(
          got.reduce((s, x) => s + x, 0),
          total,
        );
      });
    }
    it('refuses a non-zero total over zero weights', () => assert.throws(() => allocateProportionally(5, [0, 0]), /zero weights/));
  });

  describe('applyVat (invoices)', () => {
    it('prices include VAT: the total is unchanged and VAT per rate is the sum of the lines', () => {
      const r = applyVat({
        country: 'IS',
        pricesIncludeVat: true,
        discount: 0,
        lines: [
          { amount: 3000, rate: 'standard' },
          { amount: 3000, rate: 'standard' },
          { amount: 1000, rate: 'reduced' },
          { amount: 500, rate: 'exempt' },
        ],
      });
      assert.deepEqual(
        r.lines.map((l) => l.vat),
        [581, 581, 99, 0],
      );
      assert.deepEqual(
        r.breakdown.map((b) => [b.rate, b.net, b.vat, b.gross]),
        [
          ['standard', 4838, 1162, 6000], // not round(6000 × 24/124) = 1161: per line, then summed
          ['reduced', 901, 99, 1000],
          ['exempt', 500, 0, 500],
        ],
      );
      assert.deepEqual([r.vat, r.net, r.total, r.vatWaived], [1261, 6239, 7500, false]);
    });

    it('prices exclude VAT: VAT is added to the total', () => {
      const r = applyVat({
        country: 'IS',
        pricesIncludeVat: false,
        discount: 0,
        lines: [
          { amount: 1990, rate: 'standard' },
          { amount: 50, rate: 'reduced' },
        ],
      });
      assert.deepEqual(
        r.lines.map((l) => [l.net, l.vat, l.gross]),
        [
          [1990, 478, 2468],
          [50, 6, 56],
        ],
      );
      assert.deepEqual([r.net, r.vat, r.total], [2040, 484, 2524]);
    });

    it('splits a discount over the rates in proportion to their charges, one line per rate', () => {
      const r = applyVat({
        country: 'IS',
        pricesIncludeVat: true,
        discount: 1100,
        lines: [
          { amount: 9000, rate: 'standard' },
          { amount: 2000, rate: 'reduced' },
        ],
      });
      assert.deepEqual(
        r.discountLines.map((l) => [l.rate, l.amount, l.vat]),
        [
          ['standard', -900, -174],
          ['reduced', -200, -20],
        ],
      );
      assert.deepEqual(
        r.breakdown.map((b) => [b.rate, b.vat, b.gross]),
        [
          ['standard', 1742 - 174, 8100],
          ['reduced', 198 - 20, 1800],
        ],
      );
      assert.equal(r.total, 9900);
      assert.equal(r.vat, r.lines.reduce((s, l) => s + l.vat, 0) + r.discountLines.reduce((s, l) => s + l.vat, 0));
    });

    it('a credit invoice (lines less discount ≤ 0) carries no VAT', () => {
      const r = applyVat({
        country: 'IS',
        pricesIncludeVat: true,
        discount: 0,
        lines: [
          { amount: 1000, rate: 'standard' },
          { amount: -3000, rate: 'standard' },
        ],
      });
      assert.deepEqual([r.vat, r.total, r.vatWaived], [0, 0, true]);
      assert.deepEqual(
        r.lines.map((l) => l.vat),
        [0, 0],
      );
    });

    it('VAT that would push an exclusive total below zero is waived', () => {
      const r = applyVat({
        country: 'IS',
        pricesIncludeVat: false,
        discount: 0,
        lines: [
          { amount: 100, rate: 'exempt' },
          { amount: -90, rate: 'standard' },
        ],
      });
      assert.deepEqual([r.vat, r.total, r.vatWaived], [0, 10, true]);
    });

    it('totals always add up (random invoices, both settings)', () => {
      let seed = 42;
      const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
      const rates: VatRateId[] = ['standard', 'reduced', 'exempt'];
      for (let i = 0; i < 500; i++) {
        const lines = Array.from({ length: 1 + rnd(6) }, () => ({ amount: rnd(50_000) - 5_000, rate: rates[rnd(3)]! }));
        const positive = lines.reduce((s, l) => s + l.amount, 0);
        const discount = positive > 0 ? rnd(positive) : 0;
        for (const pricesIncludeVat of [true, false]) {
          const r = applyVat({ country: 'IS', pricesIncludeVat, discount, lines });
          const all = [...r.lines, ...r.discountLines];
          assert.equal(
            r.vat,
            all.reduce((s, l) => s + l.vat, 0),
          );
          assert.equal(
            r.vat,
            r.breakdown.reduce((s, b) => s + b.vat, 0),
          );
          assert.equal(
            r.net,
            r.breakdown.reduce((s, b) => s + b.net, 0),
          );
          for (const l of all) assert.equal(l.gross, l.net + l.vat);
          if (r.total > 0) assert.equal(r.total, r.net + r.vat);
          assert.equal(0 - r.discountLines.reduce((s, l) => s + l.amount, 0), discount);
        }
      }
    });
  });

  describe('creditNoteVat', () => {
    const groups = [
      { rate: 'standard', vat: 1568, gross: 8100 },
      { rate: 'reduced', vat: 178, gross: 1800 },
    ];
    it('a full credit returns exactly the invoice VAT', () => {
      const r = creditNoteVat(9900, groups);
      assert.deepEqual(
        r.map((g) => [g.share.gross, g.share.vat]),
        [
          [8100, 1568],
          [1800, 178],
        ],
      );
    });
    it('a partial credit is split by gross and keeps each group’s VAT ratio', () => {
      const r = creditNoteVat(990, groups);
      assert.deepEqual(
        r.map((g) => [g.share.gross, g.share.vat, g.share.net]),
        [
          [810, 157, 653],
          [180, 18, 162],
        ],
      ); // 156.8 → 157, 17.8 → 18
    });
    it('refuses a credit against an invoice that charged nothing', () => {
      assert.throws(() => creditNoteVat(5, [{ vat: 0, gross: 0 }]), /charged something/);
    });
  });

  describe('carriedBalanceByRate', () => {
    it('carries each rate its own line sum, in rate order, summing to the credit', () => {
      assert.deepEqual(
        carriedBalanceByRate(742, [
          { amount: 742, rate: 'reduced' },
          { amount: -1484, rate: 'standard' },
        ]),
        [
          { rate: 'standard', amount: -1484 },
          { rate: 'reduced', amount: 742 },
        ],
      );
      assert.deepEqual(
        carriedBalanceByRate(742, [
          { amount: -2226, rate: 'reduced' },
          { amount: 1484, rate: 'reduced' },
        ]),
        [{ rate: 'reduced', amount: -742 }],
      );
    });
    it('drops rates that net to 0, carries nothing for no credit, and refuses a credit the lines do not make', () => {
      assert.deepEqual(
        carriedBalanceByRate(100, [
          { amount: 50, rate: 'standard' },
          { amount: -50, rate: 'standard' },
          { amount: -100, rate: 'exempt' },
        ]),
        [{ rate: 'exempt', amount: -100 }],
      );
      assert.deepEqual(carriedBalanceByRate(0, [{ amount: 10, rate: 'standard' }]), []);
      assert.throws(() => carriedBalanceByRate(5, [{ amount: -4, rate: 'standard' }]), RangeError);
    });
  });
});
