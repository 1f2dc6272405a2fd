// The billing ledger, read-only (docs/ledger.md):
//   GET /v1/ledger_entries   entries newest first; invoice, customer, account, created[gt|gte|lt|lte]
//   GET /v1/trial_balance    sums per currency and account; as_of (default now), customer
import { answerPage, area, route, secretKey } from '../../route';
import { dbOf, tenantOf } from '../../context';
import { errors } from '../../../src/errors';
import { listLedgerEntries } from '../../../src/domain/ledger/list-ledger-entries';
import { trialBalance } from '../../../src/domain/ledger/trial-balance';
import { parseEventTimestamp } from '../../../src/domain/usage-events/event-input';
import { presentLedgerEntry, presentTrialBalance } from '../../../src/objects/ledger';
import { pageParams, parseQuery } from '../../validate';
import { listLedgerEntriesQuery, trialBalanceQuery } from './schemas';

/** An optional instant: absent is undefined; given, it must be a timestamp (an empty value is refused, never read as "now" or "no bound"). */
function instant(raw: string | undefined, param: string): Date | undefined {
  if (raw === undefined) return undefined;
  const d = parseEventTimestamp(raw);
  if (!d) throw errors.validationFailed(`${param} must be an ISO 8601 timestamp with a time zone, such as 2026-03-01T12:00:00.000Z`, param);
  return d;
}

export const ledgerRoutes = area('ledger', [
  route({
    method: 'get',
    path: '/v1/ledger_entries',
    operationId: 'listLedgerEntries',
    tag: 'Ledger',
    summary: 'List ledger entries',
    description:
      'Lists the entries of the double-entry billing ledger, newest first: each is one debit or credit on an account, part of a balanced posting the billing wrote (an invoice finalized, paid, voided or written off, a credit note, a refund). Filters: `invoice`, `customer` (an unknown one answers 404), `account`, and `created[gt|gte|lt|lte]` (ISO 8601 with a time zone). Reads only.',
    query: listLedgerEntriesQuery,
    list: 'LedgerEntry',
    ...secretKey(),
    handler: answerPage((ctx) => {
      const q = parseQuery(listLedgerEntriesQuery, ctx.query);
      const created: Record<string, Date> = {};
      for (const op of ['gt', 'gte', 'lt', 'lte'] as const) {
        const d = instant(q[`created[${op}]`], `created[${op}]`);
        if (d) created[op] = d;
      }
      return listLedgerEntries(dbOf(ctx), { invoiceId: q.invoice, customerId: q.customer, account: q.account, created }, pageParams(ctx.query));
    }, presentLedgerEntry),
  }),
  route({
    method: 'get',
    path: '/v1/trial_balance',
    operationId: 'retrieveTrialBalance',
    tag: 'Ledger',
    summary: 'The trial balance',
    description:
      "Sums the ledger's debits and credits per currency and account, over the entries created up to `as_of` (ISO 8601 with a time zone; default now), for the whole merchant or one `customer` (an unknown one answers 404), with total debits and credits per currency (equal for the whole merchant, as every posting is balanced). Reads only.",
    query: trialBalanceQuery,
    response: 'TrialBalance',
    ...secretKey(),
    handler: () => async (ctx) => {
      const q = parseQuery(trialBalanceQuery, ctx.query);
      const asOf = instant(q.as_of, 'as_of') ?? new Date();
      ctx.body = presentTrialBalance(await trialBalance(dbOf(ctx), tenantOf(ctx), { asOf, customerId: q.customer }));
    },
  }),
]);
