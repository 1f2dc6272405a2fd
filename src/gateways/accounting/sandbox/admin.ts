// The sandbox's admin routes (/admin/...): tests and the e2e suite steer it over HTTP with these.
import { json, readBody } from './http';
import type { SandboxLimits } from './limits';
import type { AccountingSandbox, Exchange } from './types';

export async function handleAdmin(sandbox: AccountingSandbox, limits: SandboxLimits, { req, res, path, method }: Exchange): Promise<void> {
  const body = method === 'POST' ? (JSON.parse((await readBody(req)) || '{}') as Record<string, unknown>) : {};
  if (path === '/admin/companies' && method === 'POST') {
    const c = sandbox.createCompany(String(body.name ?? 'Company'));
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
    return json(res, 200, { queued: limits.queuedFaults });
  }
  if (path === '/admin/records' && method === 'GET') return json(res, 200, { data: sandbox.records() });
  if (path === '/admin/stats' && method === 'GET') return json(res, 200, sandbox.stats());
  return json(res, 404, { message: 'not found' });
}
