// Contracts of the accounting sync workflow (workflows/accounting-sync.ts) and its activity.
type Mode = 'test' | 'live';

export const ACCOUNTING_SYNC_WORKFLOW = 'accountingSyncWorkflow';
export const ACCOUNTING_SYNC_NUDGE = 'accountingSyncNudge';
export const ACCOUNTING_SYNC_STOP = 'accountingSyncStop';

export interface AccountingSyncInput {
  linkId: string;
  merchantId: string;
  mode: Mode;
  /** How long an idle sync waits before looking for new ledger records (seconds). */
  pollSeconds: number;
}

/**
 * What one push batch found: `more` (go on at once), `idle` (nothing pending), `waiting` (the link
 * is in error or has no settings: nothing can be pushed until a nudge), `stopped` (disconnected).
 */
export type SyncBatchState = 'more' | 'idle' | 'waiting' | 'stopped';

export interface SyncBatchResult {
  state: SyncBatchState;
  pushed: number;
  failed: number;
}

export interface AccountingSyncResult {
  linkId: string;
  stopped: true;
}

/** Activity failure type for "the provider is unavailable, retry later" (429, 5xx, network). */
export const PROVIDER_UNAVAILABLE = 'ProviderUnavailable';
