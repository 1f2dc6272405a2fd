// Rows read with raw SQL in the shape of the Prisma models. Hot paths lock a row and read it in
// one statement (`SELECT * … FOR UPDATE`) instead of a lock and a model query; the row comes
// back with the table's column names (snake_case) and the driver's types, which are the model's
// (bigint → BigInt, timestamptz → Date, jsonb → object, enum → string). Every column of the
// models read this way is the snake_case of its field (test/db/raw-rows.test.ts checks it
// against the models' own queries).
const CAMEL = /_([a-z0-9])/g;

export function camelRow<T>(row: Record<string, unknown>): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) out[k.replace(CAMEL, (_, c: string) => c.toUpperCase())] = v;
  return out as T;
}

/**
 * Rows that come back as JSON (`to_jsonb(row)`, `json_agg(...)`) — several rows of several
 * tables in one statement — lose the driver's types: bigint arrives as a JSON number, timestamptz
 * as an ISO string. These are the fields of each model read that way that need their type back
 * (every other column is a string, number, boolean, enum or JSON already); the test of this file
 * checks each model against its own queries, so a column added later and missing here fails there.
 */
const JSON_TYPES = {
  Invoice: {
    bigint: ['subtotal', 'discountAmount', 'total', 'vatAmount', 'amountDue', 'amountPaid'],
    date: ['periodStart', 'periodEnd', 'dueDate', 'nextPaymentAttemptAt', 'finalizedAt', 'paidAt', 'voidedAt', 'uncollectibleAt', 'lastPaymentErrorAt', 'createdAt', 'updatedAt'],
  },
  InvoiceLine: { bigint: ['quantity', 'unitAmount', 'amount', 'vatAmount'], date: ['periodStart', 'periodEnd', 'createdAt'] },
  InvoiceItem: { bigint: ['amount'], date: ['periodStart', 'periodEnd', 'createdAt', 'updatedAt'] },
  Payment: { bigint: ['amount', 'amountRefunded'], date: ['succeededAt', 'canceledAt', 'createdAt', 'updatedAt'] },
  Subscription: {
    bigint: [],
    date: [
      'billingCycleAnchor',
      'startDate',
      'currentPeriodStart',
      'currentPeriodEnd',
      'trialStart',
      'trialEnd',
      'trialWillEndNotifiedFor',
      'canceledAt',
      'endedAt',
      'pausedAt',
      'discountStart',
      'clockSyncedTo',
      'clockWakeAt',
      'workflowAttachedAt',
      'workflowEndedAt',
      'createdAt',
      'updatedAt',
    ],
  },
  SubscriptionItem: { bigint: ['includedUnits', 'rolledOverUnits'], date: ['deletedAt', 'createdAt', 'updatedAt'] },
  Price: { bigint: ['unitAmount', 'includedUnits'], date: ['createdAt', 'updatedAt'] },
  Product: { bigint: [], date: ['createdAt', 'updatedAt'] },
  Meter: { bigint: [], date: ['archivedAt', 'createdAt', 'updatedAt'] },
  VatSettings: { bigint: [], date: ['updatedAt'] },
} as const satisfies Record<string, { bigint: readonly string[]; date: readonly string[] }>;

export type JsonModel = keyof typeof JSON_TYPES;

/** One row read as JSON, in the shape and types of its model (null stays null). */
export function jsonRow<T>(model: JsonModel, json: Record<string, unknown> | null): T {
  if (json === null) return null as T;
  const out = camelRow<Record<string, unknown>>(json);
  const types = JSON_TYPES[model];
  for (const f of types.bigint) {
    const v = out[f];
    if (v === null || v === undefined) continue;
    // A JSON number beyond 2^53 has lost digits already: refuse rather than store a wrong amount.
    if (typeof v === 'number' && !Number.isSafeInteger(v)) throw new RangeError(`${model}.${f} = ${v} does not fit a JSON number exactly`);
    out[f] = BigInt(v as number | string);
  }
  for (const f of types.date) {
    const v = out[f];
    if (v !== null && v !== undefined) out[f] = new Date(v as string);
  }
  return out as T;
}

/** Rows read as a JSON array (`json_agg`, null when none). */
export function jsonRows<T>(model: JsonModel, json: Array<Record<string, unknown>> | null): T[] {
  return (json ?? []).map((r) => jsonRow<T>(model, r));
}
