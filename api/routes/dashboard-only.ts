import Router from '@koa/router';
import type { AppDeps, AppState } from '../context';
import type { Auth } from '../middleware/auth';

/**
 * Settings that the spec says are managed in the merchant dashboard (convention 10) and that
 * have no API route of their own: allowed redirect domains, embedded-checkout origins,
 * bank-invoice settings and going live. With an API key they answer 403 wrong_auth_method;
 * there is no dashboard session yet, so operators use the `billing` CLI (docs/auth.md).
 */
export const DASHBOARD_ONLY_ROUTES: Array<[method: 'get' | 'post' | 'put' | 'patch' | 'delete', path: string]> = [
  ['get', '/v1/redirect_domains'],
  ['put', '/v1/redirect_domains'],
  ['get', '/v1/allowed_origins'],
  ['put', '/v1/allowed_origins'],
  ['get', '/v1/bank_invoice_settings'],
  ['put', '/v1/bank_invoice_settings'],
  ['post', '/v1/merchants/current/go_live'],
  ['patch', '/v1/merchants/current'],
];

export function dashboardOnlyRoutes(router: Router<AppState>, _deps: AppDeps, auth: Auth): void {
  for (const [method, path] of DASHBOARD_ONLY_ROUTES) {
    router[method](path, auth({ dashboardOnly: true, merchantHeaderOptional: true }), async () => undefined);
  }
}
