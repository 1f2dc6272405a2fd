// The accounting link, its providers and its sync records as the API returns them
// (docs/accounting.md). Credentials and tokens are never part of any of these.
import type { AccountingLink, AccountingSyncRecord } from '../generated/prisma/client';

interface ProviderInfo {
  id: string;
  name: string;
  authType: string;
  environment: string;
}
interface LedgerAccountInfo {
  code: string;
  name: string;
  type: string;
}
interface VatCodeInfo {
  code: string;
  name: string;
  rate: number;
}

export function presentAccountingLink(l: AccountingLink) {
  return {
    id: l.id,
    object: 'accounting_link',
    provider: l.provider,
    status: l.status,
    mode: l.mode,
    status_reason: l.statusReason,
    settings: presentAccountingSettings(l),
    created_at: l.createdAt.toISOString(),
    disconnected_at: l.disconnectedAt ? l.disconnectedAt.toISOString() : null,
  };
}

export function presentAccountingSettings(l: Pick<AccountingLink, 'defaultGlAccount' | 'vatCodeMapping'>) {
  return { default_gl_account: l.defaultGlAccount, vat_code_mapping: (l.vatCodeMapping ?? {}) as Record<string, string> };
}

export function presentProvider(p: ProviderInfo) {
  return { id: p.id, name: p.name, auth_type: p.authType, mode: p.environment };
}

export function presentLedgerAccount(a: LedgerAccountInfo) {
  return { code: a.code, name: a.name, type: a.type };
}

export function presentVatCode(v: VatCodeInfo) {
  return { code: v.code, name: v.name, rate: v.rate };
}

export function presentSyncRecord(r: AccountingSyncRecord & { posting?: { kind: string; invoiceId: string | null } }) {
  return {
    id: r.id,
    object: 'accounting_sync_record',
    link: r.linkId,
    posting: r.postingId,
    kind: r.posting?.kind ?? null,
    invoice: r.posting?.invoiceId ?? null,
    status: r.status,
    attempts: r.attempts,
    provider_id: r.providerId,
    provider_message: r.providerMessage,
    last_attempt_at: r.lastAttemptAt ? r.lastAttemptAt.toISOString() : null,
    synced_at: r.syncedAt ? r.syncedAt.toISOString() : null,
    created_at: r.createdAt.toISOString(),
  };
}
