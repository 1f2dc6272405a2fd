// Sandbox accounting providers for test mode: REAL HTTP services on loopback that behave like the
// accounting software merchants use, so the link and the sync are tested against the real thing
// (docs/accounting.md "Sandboxes"). Two shapes:
//   oauth — like Xero / Business Central: an authorization page with Allow and Deny buttons, a
//           token endpoint issuing expiring access tokens and rotating refresh tokens;
//   form  — like the Icelandic ones: an API token and a company id.
// Both keep books in memory: a chart of accounts, VAT codes, and posting endpoints for invoices,
// payments and credit notes that deduplicate on the caller's `reference`, answer 429 with
// Retry-After above their rate limit, fail transiently now and then (a configurable rate, or
// forced faults), and can be told to revoke consent. Admin routes (`/admin/...`) steer them.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import escapeHtml from 'escape-html';

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
  injectFaults(f: { status: number; count: number; retryAfterSeconds?: number; afterCommit?: boolean }): void;
  setRateLimit(perSecond: number): void;
  setTransientFailureRate(rate: number): void;
  stats(): { requests: number; posted: number; duplicates: number; rateLimited: number; failed: number };
  close(): Promise<void>;
}

export const SANDBOX_ACCOUNTS = [
  { code: '1200', name: 'Viðskiptakröfur', type: 'asset' },
  { code: '1710', name: 'Kortauppgjör', type: 'asset' },
  { code: '1720', name: 'Bankakröfur í innheimtu', type: 'asset' },
  { code: '2710', name: 'Útskattur', type: 'liability' },
  { code: '3000', name: 'Sala', type: 'revenue' },
  { code: '3010', name: 'Sala áskrifta', type: 'revenue' },
  { code: '3020', name: 'Sala bóka og matvöru', type: 'revenue' },
  { code: '3900', name: 'Afslættir', type: 'revenue' },
  { code: '7800', name: 'Afskrifaðar kröfur', type: 'expense' },
] as const;

export const SANDBOX_VAT_CODES: Record<SandboxKind, Array<{ code: string; name: string; rate: number }>> = {
  oauth: [
    { code: 'OUTPUT24', name: 'Output VAT 24%', rate: 24 },
    { code: 'OUTPUT11', name: 'Output VAT 11%', rate: 11 },
    { code: 'EXEMPTOUTPUT', name: 'No VAT', rate: 0 },
  ],
  form: [
    { code: 'S24', name: 'Útskattur 24%', rate: 24 },
    { code: 'S11', name: 'Útskattur 11%', rate: 11 },
    { code: 'S0', name: 'Undanþegið', rate: 0 },
  ],
};

const token = (prefix: string) => `${prefix}_${randomBytes(18).toString('base64url')}`;

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > 1_048_576) throw new Error('body too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', ...headers });
  res.end(JSON.stringify(body));
}

export async function startAccountingSandbox(opts: SandboxOptions): Promise<AccountingSandbox> {
  const kind = opts.kind;
  const ttl = opts.accessTokenTtlSeconds ?? 1800;
  let ratePerSecond = opts.rateLimitPerSecond ?? 50;
  let transientRate = opts.transientFailureRate ?? 0;
  const clientId = opts.clientId ?? 'billing-service';
  const clientSecret = opts.clientSecret ?? token('cs');

  const companies = new Map<string, SandboxCompany>();
  const newCompany = (name: string): SandboxCompany => {
    const c = { id: `${kind === 'oauth' ? 'org' : 'co'}_${randomBytes(6).toString('hex')}`, name, apiToken: token('apitok'), revoked: false };
    companies.set(c.id, c);
    return c;
  };
  const defaultCompany = newCompany(kind === 'oauth' ? 'Sandbox ehf.' : 'Sandbox bókhald ehf.');
  const codes = new Map<string, { redirectUri: string; company: string; expiresAt: number; used: boolean }>();
  const accessTokens = new Map<string, { company: string; expiresAt: number }>();
  const refreshTokens = new Map<string, { company: string; valid: boolean }>();
  const records = new Map<string, SandboxRecord>();
  const ordered: SandboxRecord[] = [];
  const faults: Array<{ status: number; count: number; retryAfterSeconds: number; afterCommit: boolean }> = [];
  const buckets = new Map<string, { tokens: number; at: number }>();
  const stats = { requests: 0, posted: 0, duplicates: 0, rateLimited: 0, failed: 0 };

  const issueTokens = (company: string) => {
    const access = token('at');
    const refresh = token('rt');
    accessTokens.set(access, { company, expiresAt: Date.now() + ttl * 1000 });
    refreshTokens.set(refresh, { company, valid: true });
    return { access_token: access, refresh_token: refresh, expires_in: ttl, token_type: 'Bearer', tenant_id: company };
  };

  const clientOk = (req: IncomingMessage, form: URLSearchParams): boolean => {
    const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '');
    if (basic) {
      const [id, secret] = Buffer.from(basic[1]!, 'base64').toString('utf8').split(':');
      return id === clientId && secret === clientSecret;
    }
    return form.get('client_id') === clientId && form.get('client_secret') === clientSecret;
  };

  /** The company an API request acts for, or an error answer. */
  const authenticate = (req: IncomingMessage): { company: SandboxCompany } | { status: number; message: string } => {
    const auth = req.headers.authorization ?? '';
    if (kind === 'oauth') {
      const m = /^Bearer (.+)$/.exec(auth);
      const t = m ? accessTokens.get(m[1]!) : undefined;
      if (!t) return { status: 401, message: 'invalid access token' };
      if (t.expiresAt <= Date.now()) return { status: 401, message: 'access token expired' };
      const c = companies.get(t.company)!;
      if (c.revoked) return { status: 401, message: 'consent revoked: the connection to Sandbox Books was removed' };
      return { company: c };
    }
    const m = /^Token (.+)$/.exec(auth);
    const c = companies.get(String(req.headers['x-company-id'] ?? ''));
    if (!m || !c || c.apiToken !== m[1]) return { status: 401, message: 'invalid API token or company id' };
    if (c.revoked) return { status: 401, message: 'API token revoked' };
    return { company: c };
  };

  const takeToken = (company: string): number => {
    const now = Date.now();
    const b = buckets.get(company) ?? { tokens: ratePerSecond, at: now };
    b.tokens = Math.min(ratePerSecond, b.tokens + ((now - b.at) / 1000) * ratePerSecond);
    b.at = now;
    buckets.set(company, b);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - b.tokens) / ratePerSecond));
  };

  const vatCodes = SANDBOX_VAT_CODES[kind];
  const accountCodes = new Set<string>(SANDBOX_ACCOUNTS.map((a) => a.code));
  const vatCodeSet = new Set(vatCodes.map((v) => v.code));

  const validatePosting = (type: SandboxRecord['type'], body: Record<string, unknown>): string | null => {
    if (typeof body.reference !== 'string' || body.reference.length === 0 || body.reference.length > 100) return 'reference is required (1 to 100 characters)';
    if (typeof body.currency !== 'string' || !/^[A-Z]{3}$/.test(body.currency)) return 'currency must be an ISO code';
    if (typeof body.date !== 'string' || Number.isNaN(Date.parse(body.date))) return 'date is required';
    // Like a real ledger, every document names its buyer (sales documents and payments alike): a
    // customer with an id needs a name.
    const customer = body.customer as Record<string, unknown> | null | undefined;
    if (customer === null || typeof customer !== 'object' || Array.isArray(customer)) return 'customer is required';
    if (customer.id !== null && customer.id !== undefined && (typeof customer.name !== 'string' || customer.name.trim() === '')) return 'customer.name is required';
    if (customer.kennitala !== undefined && customer.kennitala !== null && !/^\d{10}$/.test(String(customer.kennitala))) return 'customer.kennitala must be 10 digits';
    if (type === 'payment') {
      if (!Number.isSafeInteger(body.amount)) return 'amount must be an integer in minor units';
      if (body.account_code !== undefined && !accountCodes.has(String(body.account_code))) return `account ${String(body.account_code)} is not in the chart of accounts`;
      return null;
    }
    const lines = body.lines;
    if (!Array.isArray(lines) || lines.length === 0) return 'lines are required';
    for (const [i, l] of (lines as Array<Record<string, unknown>>).entries()) {
      if (!accountCodes.has(String(l.account_code))) return `line ${i + 1}: account ${String(l.account_code)} is not in the chart of accounts`;
      if (!vatCodeSet.has(String(l.vat_code))) return `line ${i + 1}: VAT code ${String(l.vat_code)} does not exist`;
      if (!Number.isSafeInteger(l.net_amount) || !Number.isSafeInteger(l.vat_amount)) return `line ${i + 1}: amounts must be integers in minor units`;
    }
    return null;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://sandbox');
    const path = url.pathname;
    const method = req.method ?? 'GET';

    // ---- the human pages ----
    if (method === 'GET' && path === '/') {
      const rows = ordered
        .slice(-500)
        .reverse()
        .map(
          (r) =>
            `<tr><td>${escapeHtml(r.createdAt)}</td><td>${r.type}</td><td>${escapeHtml(r.reference)}</td><td>${escapeHtml(r.id)}</td><td>${escapeHtml(String(r.body.total ?? r.body.amount ?? ''))}</td><td>${escapeHtml(String(r.body.currency ?? ''))}</td></tr>`,
        );
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sandbox ${kind} books</title></head><body><h1>Sandbox ${kind === 'oauth' ? 'Books (OAuth)' : 'Bókhald (form)'}</h1><p>${ordered.length} record(s), newest first.</p><table><thead><tr><th>received</th><th>type</th><th>reference</th><th>id</th><th>amount</th><th>currency</th></tr></thead><tbody>${rows.join('')}</tbody></table></body></html>`,
      );
      return;
    }

    if (kind === 'oauth' && path === '/oauth/authorize' && method === 'GET') {
      const p = url.searchParams;
      if (p.get('client_id') !== clientId || !p.get('redirect_uri') || !p.get('state') || p.get('response_type') !== 'code') {
        res.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8' });
        res.end('invalid authorization request');
        return;
      }
      const hidden = ['redirect_uri', 'state', 'client_id'].map((k) => `<input type="hidden" name="${k}" value="${escapeHtml(p.get(k)!)}">`).join('');
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': "default-src 'none'; form-action *" });
      res.end(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Authorize access</title></head><body><main><h1>Sandbox Books</h1><p>The billing service asks to post invoices, payments and credit notes to <strong>${escapeHtml(defaultCompany.name)}</strong> and to read its chart of accounts and VAT codes.</p><form method="post" action="/oauth/authorize">${hidden}<button type="submit" name="decision" value="allow">Allow</button> <button type="submit" name="decision" value="deny">Deny</button></form></main></body></html>`,
      );
      return;
    }

    if (kind === 'oauth' && path === '/oauth/authorize' && method === 'POST') {
      const form = new URLSearchParams(await readBody(req));
      const redirectUri = form.get('redirect_uri') ?? '';
      const state = form.get('state') ?? '';
      if (form.get('client_id') !== clientId || !/^https?:\/\//.test(redirectUri)) {
        res.writeHead(400).end('invalid authorization request');
        return;
      }
      const target = new URL(redirectUri);
      target.searchParams.set('state', state);
      if (form.get('decision') === 'allow') {
        const code = token('code');
        codes.set(code, { redirectUri, company: defaultCompany.id, expiresAt: Date.now() + 10 * 60_000, used: false });
        target.searchParams.set('code', code);
      } else {
        target.searchParams.set('error', 'access_denied');
      }
      res.writeHead(302, { Location: target.toString() });
      res.end();
      return;
    }

    if (kind === 'oauth' && path === '/oauth/token' && method === 'POST') {
      stats.requests++;
      const form = new URLSearchParams(await readBody(req));
      if (!clientOk(req, form)) return json(res, 401, { error: 'invalid_client' });
      if (form.get('grant_type') === 'authorization_code') {
        const c = codes.get(form.get('code') ?? '');
        if (!c || c.used || c.expiresAt <= Date.now() || c.redirectUri !== form.get('redirect_uri'))
          return json(res, 400, { error: 'invalid_grant', error_description: 'authorization code is invalid, used or expired' });
        c.used = true;
        return json(res, 200, issueTokens(c.company));
      }
      if (form.get('grant_type') === 'refresh_token') {
        const r = refreshTokens.get(form.get('refresh_token') ?? '');
        if (!r || !r.valid) return json(res, 400, { error: 'invalid_grant', error_description: 'refresh token is invalid or was already used' });
        if (companies.get(r.company)!.revoked) return json(res, 400, { error: 'invalid_grant', error_description: 'consent revoked' });
        r.valid = false; // rotating refresh tokens, as Xero's
        return json(res, 200, issueTokens(r.company));
      }
      return json(res, 400, { error: 'unsupported_grant_type' });
    }

    // ---- admin (test control) ----
    if (path.startsWith('/admin/')) {
      const body = method === 'POST' ? (JSON.parse((await readBody(req)) || '{}') as Record<string, unknown>) : {};
      if (path === '/admin/companies' && method === 'POST') {
        const c = newCompany(String(body.name ?? 'Company'));
        return json(res, 201, { company_id: c.id, api_token: c.apiToken });
      }
      if (path === '/admin/revoke' && method === 'POST') {
        sandbox.revoke(body.company_id as string | undefined);
        return json(res, 200, { revoked: true });
      }
      if (path === '/admin/restore' && method === 'POST') {
        sandbox.restore(body.company_id as string | undefined);
        return json(res, 200, { revoked: false });
      }
      if (path === '/admin/faults' && method === 'POST') {
        sandbox.injectFaults({
          status: Number(body.status ?? 503),
          count: Number(body.count ?? 1),
          retryAfterSeconds: Number(body.retry_after ?? 1),
          afterCommit: body.after_commit === true,
        });
        return json(res, 200, { queued: faults.length });
      }
      if (path === '/admin/records' && method === 'GET') return json(res, 200, { data: sandbox.records() });
      if (path === '/admin/stats' && method === 'GET') return json(res, 200, sandbox.stats());
      return json(res, 404, { message: 'not found' });
    }

    // ---- the accounting API ----
    if (!path.startsWith('/api/')) return json(res, 404, { message: 'not found' });
    stats.requests++;
    const who = authenticate(req);
    if ('status' in who) {
      stats.failed++;
      return json(res, who.status, { message: who.message });
    }
    const company = who.company;
    const wait = takeToken(company.id);
    if (wait > 0) {
      stats.rateLimited++;
      return json(res, 429, { message: 'rate limit exceeded' }, { 'Retry-After': String(wait) });
    }
    const isPosting = method === 'POST';
    let fault = faults[0];
    if (fault && !fault.afterCommit) {
      if (--fault.count <= 0) faults.shift();
      stats.failed++;
      if (fault.status === 429) stats.rateLimited++;
      return json(
        res,
        fault.status,
        { message: fault.status === 429 ? 'rate limit exceeded' : 'temporarily unavailable' },
        fault.status === 429 ? { 'Retry-After': String(fault.retryAfterSeconds) } : {},
      );
    }
    if (isPosting && transientRate > 0 && Math.random() < transientRate) {
      stats.failed++;
      return json(res, 503, { message: 'temporarily unavailable' });
    }

    if (method === 'GET' && path === '/api/company') return json(res, 200, { id: company.id, name: company.name });
    if (method === 'GET' && path === '/api/accounts') return json(res, 200, { data: SANDBOX_ACCOUNTS });
    if (method === 'GET' && path === '/api/vat_codes') return json(res, 200, { data: vatCodes });
    if (method === 'GET' && path === '/api/records') {
      const ref = url.searchParams.get('reference');
      return json(res, 200, { data: ordered.filter((r) => r.tenant === company.id && (ref === null || r.reference === ref)) });
    }
    const types: Record<string, SandboxRecord['type']> = { '/api/invoices': 'invoice', '/api/payments': 'payment', '/api/credit_notes': 'credit_note' };
    const type = types[path];
    if (!isPosting || !type) return json(res, 404, { message: 'not found' });
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(await readBody(req)) as Record<string, unknown>;
    } catch {
      return json(res, 400, { message: 'invalid JSON' });
    }
    const problem = validatePosting(type, body);
    if (problem) return json(res, 422, { message: problem });
    const key = `${company.id}:${type}:${String(body.reference)}`;
    const existing = records.get(key);
    let status = 201;
    let record: SandboxRecord;
    if (existing) {
      existing.posts++;
      stats.duplicates++;
      record = existing;
      status = 200;
    } else {
      record = {
        id: `${type}_${randomBytes(8).toString('hex')}`,
        type,
        reference: String(body.reference),
        tenant: company.id,
        body,
        posts: 1,
        createdAt: new Date().toISOString(),
      };
      records.set(key, record);
      ordered.push(record);
      stats.posted++;
    }
    fault = faults[0];
    if (fault && fault.afterCommit) {
      // The record is kept but the answer is lost: the caller must retry with the same reference.
      if (--fault.count <= 0) faults.shift();
      stats.failed++;
      return json(res, fault.status, { message: 'temporarily unavailable' });
    }
    return json(res, status, { id: record.id, reference: record.reference, duplicate: status === 200 });
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) json(res, 500, { message: (err as Error).message });
      else res.end();
    });
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  const setRevoked = (companyId: string | undefined, revoked: boolean) => {
    for (const c of companies.values()) if (companyId === undefined || c.id === companyId) c.revoked = revoked;
  };

  const sandbox: AccountingSandbox = {
    kind,
    url: `http://127.0.0.1:${port}`,
    clientId,
    clientSecret,
    defaultCompany,
    createCompany: (name = 'Company') => newCompany(name),
    records: (type) => ordered.filter((r) => type === undefined || r.type === type).map((r) => ({ ...r })),
    revoke: (companyId) => setRevoked(companyId, true),
    restore: (companyId) => setRevoked(companyId, false),
    injectFaults: (f) => faults.push({ status: f.status, count: f.count, retryAfterSeconds: f.retryAfterSeconds ?? 1, afterCommit: f.afterCommit ?? false }),
    setRateLimit: (n) => {
      ratePerSecond = n;
      buckets.clear();
    },
    setTransientFailureRate: (r) => {
      transientRate = r;
    },
    stats: () => ({ ...stats }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
  return sandbox;
}
