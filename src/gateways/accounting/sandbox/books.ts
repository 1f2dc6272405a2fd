// The books a sandbox keeps and its accounting API (/api/...): a chart of accounts, VAT codes,
// and posting endpoints for invoices, payments and credit notes that validate like a real ledger
// and deduplicate on the caller's `reference`.
import type { IncomingMessage } from 'node:http';
import { randomBytes } from 'node:crypto';
import { json, readBody } from './http';
import type { SandboxLimits } from './limits';
import type { Exchange, SandboxAuth, SandboxCompany, SandboxKind, SandboxRecord, SandboxState } from './types';

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

const accountCodes = new Set<string>(SANDBOX_ACCOUNTS.map((a) => a.code));

/** Why a posting is refused (422), or null. */
function validatePosting(kind: SandboxKind, type: SandboxRecord['type'], body: Record<string, unknown>): string | null {
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
  const vatCodeSet = new Set(SANDBOX_VAT_CODES[kind].map((v) => v.code));
  const lines = body.lines;
  if (!Array.isArray(lines) || lines.length === 0) return 'lines are required';
  for (const [i, l] of (lines as Array<Record<string, unknown>>).entries()) {
    if (!accountCodes.has(String(l.account_code))) return `line ${i + 1}: account ${String(l.account_code)} is not in the chart of accounts`;
    if (!vatCodeSet.has(String(l.vat_code))) return `line ${i + 1}: VAT code ${String(l.vat_code)} does not exist`;
    if (!Number.isSafeInteger(l.net_amount) || !Number.isSafeInteger(l.vat_amount)) return `line ${i + 1}: amounts must be integers in minor units`;
  }
  return null;
}

/** Keeps a posting, or counts a duplicate of its reference; 201 for a new record, 200 for a duplicate. */
function keep(state: SandboxState, company: SandboxCompany, type: SandboxRecord['type'], body: Record<string, unknown>): { status: number; record: SandboxRecord } {
  const key = `${company.id}:${type}:${String(body.reference)}`;
  const existing = state.records.get(key);
  if (existing) {
    existing.posts++;
    state.stats.duplicates++;
    return { status: 200, record: existing };
  }
  const record: SandboxRecord = {
    id: `${type}_${randomBytes(8).toString('hex')}`,
    type,
    reference: String(body.reference),
    tenant: company.id,
    body,
    posts: 1,
    createdAt: new Date().toISOString(),
  };
  state.records.set(key, record);
  state.ordered.push(record);
  state.stats.posted++;
  return { status: 201, record };
}

const POSTING_TYPES: Record<string, SandboxRecord['type']> = { '/api/invoices': 'invoice', '/api/payments': 'payment', '/api/credit_notes': 'credit_note' };

async function post(state: SandboxState, limits: SandboxLimits, company: SandboxCompany, { req, res, path, method }: Exchange): Promise<void> {
  const type = POSTING_TYPES[path];
  if (method !== 'POST' || !type) return json(res, 404, { message: 'not found' });
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(await readBody(req)) as Record<string, unknown>;
  } catch {
    return json(res, 400, { message: 'invalid JSON' });
  }
  const problem = validatePosting(state.kind, type, body);
  if (problem) return json(res, 422, { message: problem });
  const { status, record } = keep(state, company, type, body);
  if (limits.loseAnswer(res)) return;
  return json(res, status, { id: record.id, reference: record.reference, duplicate: status === 200 });
}

/** Answers a request to the accounting API (any path under /api/). */
export async function handleBooksApi(state: SandboxState, limits: SandboxLimits, authenticate: (req: IncomingMessage) => SandboxAuth, ex: Exchange): Promise<void> {
  const { req, res, url, path, method } = ex;
  state.stats.requests++;
  const who = authenticate(req);
  if ('status' in who) {
    state.stats.failed++;
    return json(res, who.status, { message: who.message });
  }
  const company = who.company;
  if (limits.refuseBeforeWork(res, company.id, method === 'POST')) return;
  if (method === 'GET' && path === '/api/company') return json(res, 200, { id: company.id, name: company.name });
  if (method === 'GET' && path === '/api/accounts') return json(res, 200, { data: SANDBOX_ACCOUNTS });
  if (method === 'GET' && path === '/api/vat_codes') return json(res, 200, { data: SANDBOX_VAT_CODES[state.kind] });
  if (method === 'GET' && path === '/api/records') {
    const ref = url.searchParams.get('reference');
    return json(res, 200, { data: state.ordered.filter((r) => r.tenant === company.id && (ref === null || r.reference === ref)) });
  }
  return post(state, limits, company, ex);
}
