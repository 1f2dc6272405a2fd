// The form provider behaviour (like the Icelandic accounting software): an API request names its
// company (X-Company-Id) and carries that company's API token.
import type { IncomingMessage } from 'node:http';
import type { SandboxAuth, SandboxState } from './types';

export function formAuthenticate(state: SandboxState, req: IncomingMessage): SandboxAuth {
  const m = /^Token (.+)$/.exec(req.headers.authorization ?? '');
  const c = state.companies.get(String(req.headers['x-company-id'] ?? ''));
  if (!m || !c || c.apiToken !== m[1]) return { status: 401, message: 'invalid API token or company id' };
  if (c.revoked) return { status: 401, message: 'API token revoked' };
  return { company: c };
}
