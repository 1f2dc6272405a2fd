// The OAuth provider behaviour (like Xero / Business Central): authorization codes from the
// consent page, a token endpoint issuing expiring access tokens and rotating refresh tokens, and
// Bearer authentication of API requests. The consent page itself is in server.ts (the human pages).
import type { IncomingMessage } from 'node:http';
import { json, readBody, token } from './http';
import type { Exchange, SandboxAuth, SandboxState } from './types';

export interface OAuthProvider {
  /** Answers POST /oauth/authorize and POST /oauth/token; false for any other request. */
  handle(ex: Exchange): Promise<boolean>;
  authenticate(req: IncomingMessage): SandboxAuth;
}

export function oauthProvider(state: SandboxState, ttl: number): OAuthProvider {
  const codes = new Map<string, { redirectUri: string; company: string; expiresAt: number; used: boolean }>();
  const accessTokens = new Map<string, { company: string; expiresAt: number }>();
  const refreshTokens = new Map<string, { company: string; valid: boolean }>();

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
      return id === state.clientId && secret === state.clientSecret;
    }
    return form.get('client_id') === state.clientId && form.get('client_secret') === state.clientSecret;
  };

  const authorize = async ({ req, res }: Exchange): Promise<void> => {
    const form = new URLSearchParams(await readBody(req));
    const redirectUri = form.get('redirect_uri') ?? '';
    const oauthState = form.get('state') ?? '';
    if (form.get('client_id') !== state.clientId || !/^https?:\/\//.test(redirectUri)) {
      res.writeHead(400).end('invalid authorization request');
      return;
    }
    const target = new URL(redirectUri);
    target.searchParams.set('state', oauthState);
    if (form.get('decision') === 'allow') {
      const code = token('code');
      codes.set(code, { redirectUri, company: state.defaultCompany.id, expiresAt: Date.now() + 10 * 60_000, used: false });
      target.searchParams.set('code', code);
    } else {
      target.searchParams.set('error', 'access_denied');
    }
    res.writeHead(302, { Location: target.toString() });
    res.end();
  };

  const grant = async ({ req, res }: Exchange): Promise<void> => {
    state.stats.requests++;
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
      if (state.companies.get(r.company)!.revoked) return json(res, 400, { error: 'invalid_grant', error_description: 'consent revoked' });
      r.valid = false; // rotating refresh tokens, as Xero's
      return json(res, 200, issueTokens(r.company));
    }
    return json(res, 400, { error: 'unsupported_grant_type' });
  };

  return {
    handle: async (ex) => {
      if (ex.method !== 'POST') return false;
      if (ex.path === '/oauth/authorize') await authorize(ex);
      else if (ex.path === '/oauth/token') await grant(ex);
      else return false;
      return true;
    },
    authenticate: (req) => {
      const m = /^Bearer (.+)$/.exec(req.headers.authorization ?? '');
      const t = m ? accessTokens.get(m[1]!) : undefined;
      if (!t) return { status: 401, message: 'invalid access token' };
      if (t.expiresAt <= Date.now()) return { status: 401, message: 'access token expired' };
      const c = state.companies.get(t.company)!;
      if (c.revoked) return { status: 401, message: 'consent revoked: the connection to Sandbox Books was removed' };
      return { company: c };
    },
  };
}
