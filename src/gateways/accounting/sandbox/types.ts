// The accounting sandbox's public shapes and its shared state (server.ts describes the sandbox).
import type { IncomingMessage, ServerResponse } from 'node:http';

export type SandboxKind = 'oauth' | 'form';

export interface SandboxOptions {
  kind: SandboxKind;
  host?: string;
  port?: number;
  /** OAuth access token lifetime (default 1800 s; Xero's is 30 minutes). */
  accessTokenTtlSeconds?: number;
  /** Requests per second per company before 429 (default 50). */
  rateLimitPerSecond?: number;
  /** Probability that a posting request fails with 503 (default 0). */
  transientFailureRate?: number;
  /** The OAuth client the billing service uses (default billing-service / a random secret). */
  clientId?: string;
  clientSecret?: string;
}

export interface SandboxRecord {
  id: string;
  type: 'invoice' | 'payment' | 'credit_note';
  reference: string;
  tenant: string;
  body: Record<string, unknown>;
  /** How many POSTs carried this reference (1 + duplicates answered with the same record). */
  posts: number;
  createdAt: string;
}

export interface SandboxCompany {
  id: string;
  name: string;
  apiToken: string;
  revoked: boolean;
}

export interface SandboxFault {
  status: number;
  count: number;
  retryAfterSeconds?: number;
  afterCommit?: boolean;
}

export interface SandboxStats {
  requests: number;
  posted: number;
  duplicates: number;
  rateLimited: number;
  failed: number;
}

export interface AccountingSandbox {
  readonly kind: SandboxKind;
  readonly url: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** The company the OAuth sandbox authorizes, or a form company (createCompany). */
  readonly defaultCompany: SandboxCompany;
  createCompany(name?: string): SandboxCompany;
  records(type?: SandboxRecord['type']): SandboxRecord[];
  revoke(companyId?: string): void;
  restore(companyId?: string): void;
  /** The next `count` API requests answer `status` (429 with Retry-After `retryAfterSeconds`). */
  injectFaults(f: SandboxFault): void;
  setRateLimit(perSecond: number): void;
  setTransientFailureRate(rate: number): void;
  stats(): SandboxStats;
  close(): Promise<void>;
}

/** What one sandbox keeps in memory; every route module reads and changes it. */
export interface SandboxState {
  readonly kind: SandboxKind;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly companies: Map<string, SandboxCompany>;
  readonly defaultCompany: SandboxCompany;
  readonly records: Map<string, SandboxRecord>;
  readonly ordered: SandboxRecord[];
  readonly stats: SandboxStats;
  newCompany(name: string): SandboxCompany;
}

/** The company an API request acts for, or the error it is answered with. */
export type SandboxAuth = { company: SandboxCompany } | { status: number; message: string };

/** One request as the route modules see it. */
export interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  path: string;
  method: string;
}
