// One batch of the sync (the activity behind workflows/accounting-sync.ts): pushes the link's
// pending records to the provider in posting order, each with its posting id as the reference
// (the provider deduplicates, so a push repeated after a crash books once).
//   - each push runs in a transaction holding the link row FOR SHARE and re-checking that the
//     link is still current and active: a DELETE waits for it, and nothing is pushed after it;
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

class LinkGone extends Error {}

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
    try {
      await db.$transaction(
        async (tx) => {
          const locked = await tx.$queryRaw<Array<{ status: string; current_key: string | null }>>`
          SELECT status::text AS status, current_key FROM accounting_links
           WHERE id = ${link.id} AND merchant_id = ${tenant.merchantId} AND mode = ${tenant.mode}::"Mode" FOR SHARE`;
          if (!locked[0] || locked[0].current_key === null || locked[0].status !== 'active') throw new LinkGone();
          const answer =
            doc.type === 'invoice'
              ? await adapter.postInvoice(creds, doc.doc)
              : doc.type === 'credit_note'
                ? await adapter.postCreditNote(creds, doc.doc)
                : await adapter.postPayment(creds, doc.doc);
          await tx.accountingSyncRecord.update({
            where: { id: record.id },
            data: { status: 'synced', providerId: answer.id, providerMessage: null, attempts: { increment: 1 }, lastAttemptAt: now, syncedAt: now },
          });
        },
        { timeout: 60_000, maxWait: 10_000 },
      );
      result.pushed++;
    } catch (err) {
      if (err instanceof LinkGone) return { ...result, state: 'stopped' };
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
  }
  return { ...result, state: pending.length === max ? 'more' : 'idle' };
}
