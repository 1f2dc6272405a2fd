// The HTTP adapter for providers with the sandbox's API shape (the two sandboxes; a real provider
// gets its own adapter behind the same interface). Timeouts and network errors are
// ProviderUnavailableError, like 429 (with Retry-After) and 5xx.
import type {
  AccountingAdapter,
  LedgerAccountInfo,
  OAuthTokens,
  ProviderCredentials,
  ProviderCreditNote,
  ProviderInfo,
  ProviderInvoice,
  ProviderPayment,
  VatCodeInfo,
} from './adapter';
import { ProviderAuthError, ProviderRejectedError, ProviderUnavailableError } from './adapter';

export interface HttpAdapterOptions {
  info: ProviderInfo;
  baseUrl: string;
  /** OAuth client of this service at the provider. */
  clientId?: string;
  clientSecret?: string;
  timeoutMs?: number;
}

function retryAfterMs(header: string | null): number | null {
  if (!header) return null;
  const s = Number(header);
  if (Number.isFinite(s)) return Math.max(0, s * 1000);
  const t = Date.parse(header);
  return Number.isNaN(t) ? null : Math.max(0, t - Date.now());
}

export function createHttpAccountingAdapter(opts: HttpAdapterOptions): AccountingAdapter {
  const base = opts.baseUrl.replace(/\/+$/, '');
  const timeoutMs = opts.timeoutMs ?? 15_000;

  async function request(method: string, path: string, init: { headers?: Record<string, string>; body?: string } = {}): Promise<{ status: number; body: any; headers: Headers }> {
    let res: Response;
    try {
      res = await fetch(`${base}${path}`, { method, headers: init.headers, body: init.body, signal: AbortSignal.timeout(timeoutMs), redirect: 'manual' });
    } catch (err) {
      throw new ProviderUnavailableError(`${opts.info.name} did not answer: ${(err as Error).message}`);
    }
    const text = await res.text();
    let body: any = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = { message: text.slice(0, 500) };
    }
    return { status: res.status, body, headers: res.headers };
  }

  function authHeaders(c: ProviderCredentials): Record<string, string> {
    return c.kind === 'oauth' ? { Authorization: `Bearer ${c.accessToken}` } : { Authorization: `Token ${c.apiToken}`, 'X-Company-Id': c.companyId };
  }

  async function api(method: string, path: string, c: ProviderCredentials, body?: unknown): Promise<any> {
    const headers = { ...authHeaders(c), ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}) };
    const r = await request(method, path, { headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const message = typeof r.body?.message === 'string' ? r.body.message : `HTTP ${r.status}`;
    if (r.status === 401 || r.status === 403) throw new ProviderAuthError(`${opts.info.name}: ${message}`);
    if (r.status === 429) throw new ProviderUnavailableError(`${opts.info.name}: ${message}`, retryAfterMs(r.headers.get('retry-after')), 429);
    if (r.status >= 500) throw new ProviderUnavailableError(`${opts.info.name}: ${message}`, retryAfterMs(r.headers.get('retry-after')), r.status);
    if (r.status >= 400) throw new ProviderRejectedError(message, r.status);
    return r.body;
  }

  async function token(form: Record<string, string>): Promise<OAuthTokens> {
    const basic = Buffer.from(`${opts.clientId}:${opts.clientSecret}`).toString('base64');
    const r = await request('POST', '/oauth/token', {
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Authorization: `Basic ${basic}` },
      body: new URLSearchParams(form).toString(),
    });
    if (r.status === 400 || r.status === 401) throw new ProviderAuthError(`${opts.info.name}: ${r.body?.error_description ?? r.body?.error ?? 'token request refused'}`);
    if (r.status === 429 || r.status >= 500)
      throw new ProviderUnavailableError(`${opts.info.name}: token endpoint answered ${r.status}`, retryAfterMs(r.headers.get('retry-after')), r.status);
    if (r.status !== 200) throw new ProviderRejectedError(`token endpoint answered ${r.status}`, r.status);
    const b = r.body as { access_token: string; refresh_token: string; expires_in: number; tenant_id: string };
    return { accessToken: b.access_token, refreshToken: b.refresh_token, expiresAt: new Date(Date.now() + b.expires_in * 1000), tenant: b.tenant_id };
  }

  const adapter: AccountingAdapter = {
    info: opts.info,
    async verify(c) {
      const b = await api('GET', '/api/company', c);
      return { tenant: String(b.id), name: String(b.name) };
    },
    async chartOfAccounts(c): Promise<LedgerAccountInfo[]> {
      return ((await api('GET', '/api/accounts', c)).data as LedgerAccountInfo[]).map((a) => ({ code: a.code, name: a.name, type: a.type }));
    },
    async vatCodes(c): Promise<VatCodeInfo[]> {
      return ((await api('GET', '/api/vat_codes', c)).data as VatCodeInfo[]).map((v) => ({ code: v.code, name: v.name, rate: v.rate }));
    },
    async postInvoice(c, doc: ProviderInvoice) {
      return { id: String((await api('POST', '/api/invoices', c, doc)).id) };
    },
    async postCreditNote(c, doc: ProviderCreditNote) {
      return { id: String((await api('POST', '/api/credit_notes', c, doc)).id) };
    },
    async postPayment(c, doc: ProviderPayment) {
      return { id: String((await api('POST', '/api/payments', c, doc)).id) };
    },
  };
  if (opts.info.authType === 'oauth') {
    adapter.authorizeUrl = ({ state, redirectUri }) => {
      const u = new URL(`${base}/oauth/authorize`);
      u.searchParams.set('response_type', 'code');
      u.searchParams.set('client_id', opts.clientId ?? '');
      u.searchParams.set('redirect_uri', redirectUri);
      u.searchParams.set('scope', 'accounting.transactions accounting.settings offline_access');
      u.searchParams.set('state', state);
      return u.toString();
    };
    adapter.exchangeCode = ({ code, redirectUri }) => token({ grant_type: 'authorization_code', code, redirect_uri: redirectUri });
    adapter.refresh = (refreshToken) => token({ grant_type: 'refresh_token', refresh_token: refreshToken });
  }
  return adapter;
}
