// Dashboard fixtures: users of a merchant, signing in over plain HTTP (cookie + CSRF token) for
// API-level tests of the dashboard and its dashboard-only JSON routes, and the headless Chromium
// the e2e tests drive (test/e2e/dashboard*.test.ts).
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { createDashboardUser } from '../../src/domain/dashboard-users/create-dashboard-user';
import { CHROMIUM, CHROMIUM_FLAGS, ensureChromium } from './chromium';
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
  const cookie = cookiesOf(res)
    .filter((c) => c.startsWith('billing_dashboard='))
    .join('; ');
  const account = await fetch(`${env.baseUrl}/dashboard/account`, { headers: { Cookie: cookie } });
  return { cookie, csrf: csrfIn(await account.text()) };
}

/** Where the browser tests keep their screenshots (look at them: docs/dashboard.md). */
export const SCREENSHOT_DIR = process.env.DASHBOARD_SCREENSHOT_DIR ?? path.resolve(__dirname, '..', '..', '..', 'test-artifacts', 'dashboard');
export const LAPTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

export interface DashboardBrowser {
  /** A fresh page with its own cookies; CSP violations are collected in `cspViolations`. */
  freshPage(viewport?: { width: number; height: number }): Promise<{ page: Page; close: () => Promise<void> }>;
  /** Fills and sends the sign-in form (the caller waits for where it leads). */
  signIn(page: Page, user: { email: string; password?: string }, password?: string): Promise<void>;
  /** Signs in and waits for the home page. */
  signedIn(user: { email: string; password?: string }, viewport?: { width: number; height: number }): Promise<{ page: Page; close: () => Promise<void> }>;
  shot(page: Page, name: string): Promise<void>;
  cspViolations: string[];
}

/** Headless Chromium for the dashboard e2e tests (each page in its own browser profile). */
export function dashboardBrowser(env: Pick<TestEnv, 'baseUrl'>): DashboardBrowser {
  ensureChromium();
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const cspViolations: string[] = [];
  const freshPage: DashboardBrowser['freshPage'] = async (viewport = LAPTOP) => {
    const profile = mkdtempSync(path.join(os.tmpdir(), 'dashboard-e2e-'));
    const ctx = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_FLAGS,
      locale: 'en-US',
      viewport,
      acceptDownloads: true,
    });
    const page = ctx.pages()[0] ?? (await ctx.newPage());
    page.on('console', (msg) => {
      if (/Content Security Policy/i.test(msg.text())) cspViolations.push(`${page.url()}: ${msg.text()}`);
    });
    page.on('dialog', (d) => void d.accept());
    return {
      page,
      close: async () => {
        await ctx.close();
        rmSync(profile, { recursive: true, force: true });
      },
    };
  };
  const signIn: DashboardBrowser['signIn'] = async (page, user, password = user.password ?? TEST_PASSWORD) => {
    await page.goto(`${env.baseUrl}/dashboard/sign-in`);
    await page.fill('#f-email', user.email);
    await page.fill('#f-password', password);
    await page.click('#sign-in-button');
  };
  return {
    freshPage,
    signIn,
    signedIn: async (user, viewport) => {
      const p = await freshPage(viewport);
      await signIn(p.page, user);
      await p.page.waitForURL(`${env.baseUrl}/dashboard`);
      return p;
    },
    shot: async (page, name) => {
      await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
    },
    cspViolations,
  };
}
