// The one interface every accounting provider fits (docs/accounting.md "Providers"): an OAuth
// provider (Xero, Business Central: authorize URL, code exchange, refresh) and a form provider
// (the Icelandic ones: an API token and a company id) both implement it. Errors are typed so the
// sync knows what to do: retry later (ProviderUnavailableError: 429, 5xx, network), stop and mark
// the link `error` (ProviderAuthError: consent revoked, token rejected), or record the refusal on
// the record (ProviderRejectedError: the provider's validation message).

export type AuthType = 'oauth' | 'form';

export interface ProviderInfo {
  id: string;
  name: string;
  authType: AuthType;
  /** test: a sandbox on loopback; live: the real service. */
  environment: 'test' | 'live';
}

export interface OAuthTokens {
  accessToken: string;
  refreshToken: string;
  expiresAt: Date;
  tenant: string;
}

/** What the adapter needs to act for the merchant. */
export type ProviderCredentials = { kind: 'oauth'; accessToken: string; refreshToken: string; tenant: string } | { kind: 'form'; apiToken: string; companyId: string };

export interface LedgerAccountInfo {
  code: string;
  name: string;
  type: string;
}

export interface VatCodeInfo {
  code: string;
  name: string;
  rate: number;
}

export interface ProviderDocumentLine {
  description: string;
  account_code: string;
  vat_code: string;
  net_amount: number;
  vat_amount: number;
}

/** The buyer as the accounting software files it: name (else email), kennitala, billing address. */
export interface ProviderCustomer {
  id: string | null;
  name: string | null;
  email: string | null;
  kennitala: string | null;
  address: { line1: string | null; line2: string | null; postal_code: string | null; city: string | null; country: string | null } | null;
}

export interface ProviderInvoice {
  reference: string;
  date: string;
  currency: string;
  customer: ProviderCustomer;
  invoice_number: string | null;
  lines: ProviderDocumentLine[];
  total: number;
}

export interface ProviderCreditNote extends ProviderInvoice {
  invoice_reference: string | null;
}

export interface ProviderPayment {
  reference: string;
  date: string;
  currency: string;
  /** Who paid (or was refunded, or written off): the same buyer as on the invoice. */
  customer: ProviderCustomer;
  invoice_reference: string | null;
  /** Negative for refunds and reversals. */
  amount: number;
  method: string;
  account_code?: string;
}

export interface AccountingAdapter {
  readonly info: ProviderInfo;
  /** OAuth: where to send the user. */
  authorizeUrl?(input: { state: string; redirectUri: string }): string;
  /** OAuth: exchanges the code from the callback. */
  exchangeCode?(input: { code: string; redirectUri: string }): Promise<OAuthTokens>;
  /** OAuth: a new access token (and rotated refresh token). */
  refresh?(refreshToken: string): Promise<OAuthTokens>;
  /** Form: checks the credentials and names the company. */
  verify(credentials: ProviderCredentials): Promise<{ tenant: string; name: string }>;
  chartOfAccounts(credentials: ProviderCredentials): Promise<LedgerAccountInfo[]>;
  vatCodes(credentials: ProviderCredentials): Promise<VatCodeInfo[]>;
  postInvoice(credentials: ProviderCredentials, doc: ProviderInvoice): Promise<{ id: string }>;
  postCreditNote(credentials: ProviderCredentials, doc: ProviderCreditNote): Promise<{ id: string }>;
  postPayment(credentials: ProviderCredentials, doc: ProviderPayment): Promise<{ id: string }>;
}

export class ProviderUnavailableError extends Error {
  constructor(
    message: string,
    readonly retryAfterMs: number | null = null,
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = 'ProviderUnavailableError';
  }
}

export class ProviderAuthError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProviderAuthError';
  }
}

export class ProviderRejectedError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'ProviderRejectedError';
  }
}
