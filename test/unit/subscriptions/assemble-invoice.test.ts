// The pure middle part of building a subscription invoice (src/domain/subscriptions/assemble-invoice.ts):
// from gathered rows to lines, VAT, discount lines, credit carried forward and rollover units,
// with no database (the rows are written by hand here).
import assert from 'node:assert/strict';
import { assembleInvoiceDraft } from '../../../src/domain/subscriptions/assemble-invoice';
import type { BuildInvoiceInput } from '../../../src/domain/subscriptions/build-invoice-input';
import type { GatheredInvoiceInputs, PriceWithProduct } from '../../../src/domain/subscriptions/gather-invoice-inputs';
import type { InvoiceItem, Subscription, SubscriptionItem } from '../../../src/generated/prisma/client';
import { DEFAULT_VAT_SETTINGS } from '../../../src/domain/vat/vat-settings';

const june = { start: new Date('2026-06-01T00:00:00Z'), end: new Date('2026-07-01T00:00:00Z') };
const july = { start: new Date('2026-07-01T00:00:00Z'), end: new Date('2026-08-01T00:00:00Z') };

function price(id: string, unitAmount: number, vatRate: string | null): PriceWithProduct {
  return {
    id,
    productId: 'prod_1',
    unitAmount: BigInt(unitAmount),
    recurringInterval: 'month',
    recurringIntervalCount: 1,
    recurringUsageType: 'licensed',
    recurringAggregateUsage: null,
    tiersMode: null,
    tiers: null,
    meterId: null,
    includedUnits: null,
    vatRate,
    accountingCode: null,
    product: { id: 'prod_1', name: 'Streymi', vatRate: null },
    meter: null,
  } as unknown as PriceWithProduct;
}

function item(id: string, priceId: string, quantity: number): SubscriptionItem {
  return { id, priceId, quantity, includedUnits: null, creditRollover: false, rolledOverUnits: 0n } as unknown as SubscriptionItem;
}

function gathered(over: Partial<GatheredInvoiceInputs> = {}): GatheredInvoiceInputs {
  return {
    existing: null,
    items: [item('si_1', 'price_1', 2)],
    priceById: new Map([['price_1', price('price_1', 2990, 'standard')]]),
    pending: [],
    vatSettings: DEFAULT_VAT_SETTINGS,
    meteredUsage: {},
    rolloverIn: {},
    ...over,
  };
}

function input(over: Partial<BuildInvoiceInput> = {}, sub: Partial<Subscription> = {}): BuildInvoiceInput {
  return {
    subscription: { id: 'sub_1', customerId: 'cus_1', currency: 'ISK', discount: null, discountStart: null, ...sub } as unknown as Subscription,
    billingReason: 'subscription_cycle',
    keyPart: july.start.toISOString(),
    discountBoundary: july.start,
    period: july,
    openingPeriod: july,
    closingPeriod: june,
    pendingScope: 'customer',
    ...over,
  };
}

describe('assembleInvoiceDraft (pure)', () => {
  it('bills licensed items in advance, with VAT included at the price rate (24 %)', () => {
    const draft = assembleInvoiceDraft(input(), gathered());
    assert.ok(draft);
    assert.equal(draft.lines.length, 1);
    const [line] = draft.lines;
    assert.equal(line!.kind, 'licensed');
    assert.equal(line!.amount, 5980n);
    assert.equal(line!.quantity, 2n);
    assert.equal(line!.subscriptionItemId, 'si_1');
    assert.equal(line!.vatRate, 'standard');
    assert.equal(line!.periodStart?.toISOString(), july.start.toISOString());
    assert.equal(draft.subtotal, 5980n);
    assert.equal(draft.total, 5980n, 'prices include VAT by default');
    assert.equal(draft.vat, 1157n, '5980 × 24/124, rounded');
    assert.equal(draft.discount, 0n);
    assert.deepEqual(draft.carried, []);
    assert.equal(draft.rolloverOut.size, 0);
  });

  it('adds pending invoice items at their own rate and a percent discount as one line per rate', () => {
    const pending = [
      { id: 'ii_1', description: 'Setup', amount: 1000n, quantity: 1, proration: false, periodStart: null, periodEnd: null, vatRate: 'reduced' } as unknown as InvoiceItem,
    ];
    const draft = assembleInvoiceDraft(
      input({}, { discount: { percent_off: 10, duration: 'forever' }, discountStart: july.start } as Partial<Subscription>),
      gathered({ pending }),
    );
    assert.ok(draft);
    const kinds = draft.lines.map((l) => [l.kind, l.vatRate, l.amount]);
    assert.deepEqual(kinds.slice(0, 2), [
      ['licensed', 'standard', 5980n],
      ['invoice_item', 'reduced', 1000n],
    ]);
    const discounts = draft.lines.filter((l) => l.kind === 'discount');
    assert.equal(discounts.length, 2, 'the discount reduces two rates');
    assert.ok(discounts.every((l) => l.description.startsWith('Discount (10% off), ')));
    assert.equal(draft.discount, 698n, '10 % of 6980');
    assert.equal(
      discounts.reduce((n, l) => n + l.amount, 0n),
      -698n,
    );
    assert.equal(draft.total, 6282n);
  });

  it('a discount that does not apply at the boundary leaves no discount line', () => {
    const draft = assembleInvoiceDraft(input({}, { discount: { percent_off: 10, duration: 'once' }, discountStart: june.start } as Partial<Subscription>), gathered());
    assert.ok(draft);
    assert.equal(draft.discount, 0n);
    assert.equal(draft.lines.filter((l) => l.kind === 'discount').length, 0);
  });

  it('nothing to bill (a final invoice with no usage and no pending items) is null', () => {
    assert.equal(assembleInvoiceDraft(input({ openingPeriod: null }), gathered()), null);
  });
});
