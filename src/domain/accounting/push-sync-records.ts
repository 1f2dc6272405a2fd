// One batch of the sync (the activity behind workflows/accounting-sync.ts): pushes the link's
// pending records to the provider in posting order, each with its posting id as the reference
// (the provider deduplicates, so a push repeated after a crash books once).
//   - each push is step-wise, with no transaction open during the provider call
//     (docs/architecture.md "No outside call inside a database transaction"): a read that the link
//     is still current and active, the call, then the outcome in a short transaction that holds
//     the link row FOR SHARE and re-checks it. A DELETE never waits for a provider call; a push
//     already on its way when the link is disconnected is recorded as synced (the provider has it)
//     and ends the batch, so at most that one push reaches the provider after the DELETE;
//   - 429 / 5xx / network: the attempt is noted and ProviderUnavailableError propagates (the
//     activity is retried with backoff, honouring Retry-After), so order is kept;
//   - a refusal (4xx) or a mapping problem marks the record failed with the message and the
//     batch goes on; a manual re-sync puts it back to pending;
//   - credentials refused (consent revoked): the link goes to `error` (event) and the batch stops.
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { scopedDb, type Tenant } from '../../db/tenancy';
import type { RecordedEvent } from '../../events';
import type { AccountingSyncInput, SyncBatchResult } from '../../contracts/accounting';
import { ProviderAuthError, ProviderRejectedError, ProviderUnavailableError, type ProviderCredentials } from '../../gateways/accounting/adapter';
import { adapterFor, linkCredentials, LinkInError, markLinkError } from './link-credentials';
import { MappingProblem, syncDocument, type SyncSettings } from './sync-documents';

export interface PushDeps {
  db: Db;
  config: Config;
  heartbeat?: () => void;
  /** Events to dispatch (the link going to `error`). */
  onEvents?: (events: RecordedEvent[]) => Promise<void>;
}

export const PUSH_BATCH = 50;

type Queryable = Pick<Db, '$queryRaw'>;

/**
 * Whether the link is still the current, active one. `share`: holds its row FOR SHARE until the
 * caller's (short) transaction ends, so a disconnect commits either before the outcome is
 * written (and the batch stops) or after it.
 */
async function linkStillActive(db: Queryable, tenant: Tenant, linkId: string, share = false): Promise<boolean> {
  const rows = share
    ? await db.$queryRaw<Array<{ status: string; current_key: string | null }>>`
        SELECT status::text AS status, current_key FROM accounting_links
         WHERE id = ${linkId} AND merchant_id = ${tenant.merchantId} AND mode = ${tenant.mode}::"Mode" FOR SHARE`
    : await db.$queryRaw<Array<{ status: string; current_key: string | null }>>`
        SELECT status::text AS status, current_key FROM accounting_links
         WHERE id = ${linkId} AND merchant_id = ${tenant.merchantId} AND mode = ${tenant.mode}::"Mode"`;
  return rows[0] !== undefined && rows[0].current_key !== null && rows[0].status === 'active';
}

export async function pushSyncBatch(deps: PushDeps, input: AccountingSyncInput, max = PUSH_BATCH): Promise<SyncBatchResult> {
  const tenant: Tenant = { merchantId: input.merchantId, mode: input.mode };
  const db = scopedDb(deps.db, tenant);
  const result: SyncBatchResult = { state: 'idle', pushed: 0, failed: 0 };
  const link = await db.accountingLink.findFirst({ where: { id: input.linkId } });
  if (!link || link.currentKey === null) return { ...result, state: 'stopped' };
  if (link.status !== 'active' || !link.defaultGlAccount) return { ...result, state: 'waiting' };
  const settings: SyncSettings = { defaultGlAccount: link.defaultGlAccount, vatCodeMapping: (link.vatCodeMapping ?? {}) as Record<string, string> };

  const pending = await db.accountingSyncRecord.findMany({ where: { linkId: link.id, status: 'pending' }, orderBy: { seq: 'asc' }, take: max });
  if (pending.length === 0) return result;

  let creds: ProviderCredentials;
  try {
    creds = await linkCredentials(deps, link);
  } catch (err) {
    if (err instanceof LinkInError) {
      await deps.onEvents?.(err.events);
      return { ...result, state: 'waiting' };
    }
    throw err;
  }
  const adapter = adapterFor(deps.config, link.provider);

  for (const record of pending) {
    deps.heartbeat?.();
    const posting = await db.ledgerPosting.findFirstOrThrow({ where: { id: record.postingId }, include: { entries: true } });
    let invoiceReference: string | null = null;
    let invoiceNumber: string | null = null;
    if (posting.invoiceId) {
      const fin =
        posting.kind === 'invoice_finalized' ? posting : await db.ledgerPosting.findFirst({ where: { sourceKey: `invoice_finalized:${posting.invoiceId}` }, select: { id: true } });
      invoiceReference = fin?.id ?? null;
      invoiceNumber = (await db.invoice.findFirst({ where: { id: posting.invoiceId }, select: { number: true } }))?.number ?? null;
    }
    const now = new Date();
    let doc;
    try {
      const customer = posting.customerId ? await db.customer.findFirst({ where: { id: posting.customerId } }) : null;
      doc = syncDocument(posting, settings, { invoiceReference, invoiceNumber, customer });
    } catch (err) {
      if (!(err instanceof MappingProblem)) throw err;
      await db.accountingSyncRecord.update({ where: { id: record.id }, data: { status: 'failed', providerMessage: err.message, attempts: { increment: 1 }, lastAttemptAt: now } });
      result.failed++;
      continue;
    }
    // 1. The link must still be the current, active one (a plain read: no transaction is open
    //    while the provider is called).
    if (!(await linkStillActive(db, tenant, link.id))) return { ...result, state: 'stopped' };
    // 2. The provider call, with no transaction open.
    let answer: { id: string };
    try {
      answer =
        doc.type === 'invoice'
          ? await adapter.postInvoice(creds, doc.doc)
          : doc.type === 'credit_note'
            ? await adapter.postCreditNote(creds, doc.doc)
            : await adapter.postPayment(creds, doc.doc);
    } catch (err) {
      if (err instanceof ProviderRejectedError) {
        await db.accountingSyncRecord.update({
          where: { id: record.id },
          data: { status: 'failed', providerMessage: err.message.slice(0, 1000), attempts: { increment: 1 }, lastAttemptAt: now },
        });
        result.failed++;
        continue;
      }
      if (err instanceof ProviderAuthError) {
        const events = await db.$transaction((tx) => markLinkError(tx, tenant, link.id, err.message, now));
        await deps.onEvents?.(events);
        return { ...result, state: 'waiting' };
      }
      if (err instanceof ProviderUnavailableError) {
        await db.accountingSyncRecord.update({ where: { id: record.id }, data: { providerMessage: err.message.slice(0, 1000), attempts: { increment: 1 }, lastAttemptAt: now } });
      }
      throw err;
    }
    // 3. The outcome, in a short transaction that re-checks the link. What the provider booked
    //    is recorded as synced whatever happened to the link meanwhile (it is there, under our
    //    reference); a link disconnected or in error meanwhile ends the batch here.
    const stillActive = await db.$transaction(async (tx) => {
      const active = await linkStillActive(tx, tenant, link.id, true);
      await tx.accountingSyncRecord.update({
        where: { id: record.id },
        data: { status: 'synced', providerId: answer.id, providerMessage: null, attempts: { increment: 1 }, lastAttemptAt: now, syncedAt: now },
      });
      return active;
    });
    result.pushed++;
    if (!stillActive) return { ...result, state: 'stopped' };
  }
  return { ...result, state: pending.length === max ? 'more' : 'idle' };
}
