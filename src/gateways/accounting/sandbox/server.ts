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
// One module per behaviour: oauth.ts and form.ts (authentication), books.ts (the ledger and its
// API), limits.ts (rate limit and faults), admin.ts; this file starts the server, routes a request
// to them and renders the human pages.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import escapeHtml from 'escape-html';
import { handleAdmin } from './admin';
import { handleBooksApi } from './books';
import { formAuthenticate } from './form';
import { json, token } from './http';
import { SandboxLimits } from './limits';
import { oauthProvider } from './oauth';
import type { AccountingSandbox, Exchange, SandboxCompany, SandboxOptions, SandboxRecord, SandboxState } from './types';

export type { AccountingSandbox, SandboxCompany, SandboxKind, SandboxOptions, SandboxRecord } from './types';
export { SANDBOX_ACCOUNTS, SANDBOX_VAT_CODES } from './books';

/** GET / : the records a sandbox holds, newest first. */
function booksPage(state: SandboxState): string {
  const { kind, ordered } = state;
  const rows = ordered
    .slice(-500)
    .reverse()
    .map(
      (r) =>
        `<tr><td>${escapeHtml(r.createdAt)}</td><td>${r.type}</td><td>${escapeHtml(r.reference)}</td><td>${escapeHtml(r.id)}</td><td>${escapeHtml(String(r.body.total ?? r.body.amount ?? ''))}</td><td>${escapeHtml(String(r.body.currency ?? ''))}</td></tr>`,
    );
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sandbox ${kind} books</title></head><body><h1>Sandbox ${kind === 'oauth' ? 'Books (OAuth)' : 'Bókhald (form)'}</h1><p>${ordered.length} record(s), newest first.</p><table><thead><tr><th>received</th><th>type</th><th>reference</th><th>id</th><th>amount</th><th>currency</th></tr></thead><tbody>${rows.join('')}</tbody></table></body></html>`;
}

/** GET /oauth/authorize : the consent page with Allow and Deny (its POST is in oauth.ts). */
function consentPage(state: SandboxState, { res, url }: Exchange): void {
  const p = url.searchParams;
  if (p.get('client_id') !== state.clientId || !p.get('redirect_uri') || !p.get('state') || p.get('response_type') !== 'code') {
    res.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8' });
    res.end('invalid authorization request');
    return;
  }
  const hidden = ['redirect_uri', 'state', 'client_id'].map((k) => `<input type="hidden" name="${k}" value="${escapeHtml(p.get(k)!)}">`).join('');
  res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': "default-src 'none'; form-action *" });
  res.end(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Authorize access</title></head><body><main><h1>Sandbox Books</h1><p>The billing service asks to post invoices, payments and credit notes to <strong>${escapeHtml(state.defaultCompany.name)}</strong> and to read its chart of accounts and VAT codes.</p><form method="post" action="/oauth/authorize">${hidden}<button type="submit" name="decision" value="allow">Allow</button> <button type="submit" name="decision" value="deny">Deny</button></form></main></body></html>`,
  );
}

function createState(opts: SandboxOptions): SandboxState {
  const kind = opts.kind;
  const companies = new Map<string, SandboxCompany>();
  const newCompany = (name: string): SandboxCompany => {
    const c = { id: `${kind === 'oauth' ? 'org' : 'co'}_${randomBytes(6).toString('hex')}`, name, apiToken: token('apitok'), revoked: false };
    companies.set(c.id, c);
    return c;
  };
  return {
    kind,
    clientId: opts.clientId ?? 'billing-service',
    clientSecret: opts.clientSecret ?? token('cs'),
    companies,
    defaultCompany: newCompany(kind === 'oauth' ? 'Sandbox ehf.' : 'Sandbox bókhald ehf.'),
    records: new Map<string, SandboxRecord>(),
    ordered: [],
    stats: { requests: 0, posted: 0, duplicates: 0, rateLimited: 0, failed: 0 },
    newCompany,
  };
}

async function listen(opts: SandboxOptions, handle: (ex: Exchange) => Promise<void>): Promise<Server> {
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://sandbox');
    handle({ req, res, url, path: url.pathname, method: req.method ?? 'GET' }).catch((err: unknown) => {
      if (!res.headersSent) json(res, 500, { message: (err as Error).message });
      else res.end();
    });
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => resolve());
  });
  return server;
}

export async function startAccountingSandbox(opts: SandboxOptions): Promise<AccountingSandbox> {
  const state = createState(opts);
  const { kind, companies, ordered, stats } = state;
  const limits = new SandboxLimits(opts.rateLimitPerSecond ?? 50, opts.transientFailureRate ?? 0, stats);
  const oauth = kind === 'oauth' ? oauthProvider(state, opts.accessTokenTtlSeconds ?? 1800) : undefined;
  const authenticate = oauth ? oauth.authenticate : (req: IncomingMessage) => formAuthenticate(state, req);

  const handle = async (ex: Exchange): Promise<void> => {
    if (ex.method === 'GET' && ex.path === '/') {
      ex.res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      ex.res.end(booksPage(state));
      return;
    }
    if (oauth && ex.method === 'GET' && ex.path === '/oauth/authorize') return consentPage(state, ex);
    if (oauth && (await oauth.handle(ex))) return;
    if (ex.path.startsWith('/admin/')) return handleAdmin(sandbox, limits, ex);
    if (!ex.path.startsWith('/api/')) return json(ex.res, 404, { message: 'not found' });
    return handleBooksApi(state, limits, authenticate, ex);
  };

  const server = await listen(opts, handle);
  const { port } = server.address() as AddressInfo;
  const setRevoked = (companyId: string | undefined, revoked: boolean) => {
    for (const c of companies.values()) if (companyId === undefined || c.id === companyId) c.revoked = revoked;
  };

  const sandbox: AccountingSandbox = {
    kind,
    url: `http://127.0.0.1:${port}`,
    clientId: state.clientId,
    clientSecret: state.clientSecret,
    defaultCompany: state.defaultCompany,
    createCompany: (name = 'Company') => state.newCompany(name),
    records: (type) => ordered.filter((r) => type === undefined || r.type === type).map((r) => ({ ...r })),
    revoke: (companyId) => setRevoked(companyId, true),
    restore: (companyId) => setRevoked(companyId, false),
    injectFaults: (f) => limits.injectFaults(f),
    setRateLimit: (n) => limits.setRateLimit(n),
    setTransientFailureRate: (r) => limits.setTransientFailureRate(r),
    stats: () => ({ ...stats }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
  return sandbox;
}
