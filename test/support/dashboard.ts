// Dashboard fixtures: users of a merchant, and signing in over plain HTTP (cookie + CSRF token),
// for API-level tests of the dashboard and its dashboard-only JSON routes.
import { createDashboardUser } from '../../src/domain/dashboard-users/create-dashboard-user';
import type { DashboardRole } from '../../src/generated/prisma/client';
import type { TestEnv } from './env';

export const TEST_PASSWORD = 'correct horse battery';

let seq = 0;
export async function newDashboardUser(env: TestEnv, merchantId: string, role: DashboardRole, password = TEST_PASSWORD) {
  const email = `${role.replace('_', '-')}-${process.pid}-${++seq}-${Date.now().toString(36)}@example.is`;
  const user = await createDashboardUser(env.db, { merchantId, email, role, password });
  return { ...user, password };
}

export interface HttpSession {
  cookie: string;
  csrf: string;
}

function cookiesOf(res: Response): string[] {
  return res.headers.getSetCookie().map((c) => c.split(';')[0]!);
}

export function csrfIn(html: string): string {
  const m = /name="_csrf" value="([^"]+)"/.exec(html);
  if (!m) throw new Error(`no _csrf field in the page: ${html.slice(0, 300)}`);
  return m[1]!;
}

/** Signs in through the sign-in form, as a browser would. */
export async function signInHttp(env: Pick<TestEnv, 'baseUrl'>, email: string, password = TEST_PASSWORD): Promise<HttpSession> {
  const page = await fetch(`${env.baseUrl}/dashboard/sign-in`);
  const pre = cookiesOf(page).join('; ');
  const token = csrfIn(await page.text());
  const res = await fetch(`${env.baseUrl}/dashboard/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: pre },
    body: new URLSearchParams({ _csrf: token, email, password, next: '/dashboard' }).toString(),
  });
  if (res.status !== 303) throw new Error(`sign-in failed: ${res.status} ${(await res.text()).slice(0, 500)}`);
  const cookie = cookiesOf(res).filter((c) => c.startsWith('billing_dashboard=')).join('; ');
  const account = await fetch(`${env.baseUrl}/dashboard/account`, { headers: { Cookie: cookie } });
  return { cookie, csrf: csrfIn(await account.text()) };
}
