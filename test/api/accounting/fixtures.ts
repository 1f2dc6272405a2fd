// Fixtures for the accounting link tests: connecting the sandboxes through the API.
import assert from 'node:assert/strict';
import type { TestEnv } from '../../support/env';
import type { TestMerchant } from '../../support/api';
import { eventually } from '../subscriptions/fixtures';

/** Connects the form sandbox with a fresh company and sets the settings; returns the link and company. */
export async function connectForm(env: TestEnv, m: TestMerchant, opts: { settings?: boolean } = {}) {
  const company = env.sandboxes.form.createCompany(`Company of ${m.id}`);
  const res = await m.call('POST', '/v1/accounting_link/complete', { body: { provider: 'sandbox_form', credentials: { api_token: company.apiToken, company_id: company.id } } });
  assert.equal(res.status, 201, res.text);
  if (opts.settings !== false) {
    const s = await m.call('POST', '/v1/accounting_link/settings', { body: { default_gl_account: '3000', vat_code_mapping: { standard: 'S24', reduced: 'S11', exempt: 'S0' } } });
    assert.equal(s.status, 200, s.text);
  }
  return { link: res.body, company };
}

/** Drives the OAuth sandbox without a browser: the Allow (or Deny) form post, then the callback. */
export async function authorizeOAuth(redirectUrl: string, decision: 'allow' | 'deny' = 'allow'): Promise<{ callback: string }> {
  const page = await fetch(redirectUrl);
  assert.equal(page.status, 200);
  const html = await page.text();
  const fields = Object.fromEntries([...html.matchAll(/name="([a-z_]+)" value="([^"]*)"/g)].map((m) => [m[1]!, m[2]!.replace(/&amp;/g, '&')]));
  const post = await fetch(new URL('/oauth/authorize', redirectUrl), {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ ...fields, decision }).toString(),
    redirect: 'manual',
  });
  assert.equal(post.status, 302);
  return { callback: post.headers.get('location')! };
}

export async function syncRecords(m: TestMerchant, query = ''): Promise<any[]> {
  const res = await m.call('GET', `/v1/accounting_link/sync_records?limit=100${query}`);
  assert.equal(res.status, 200, res.text);
  return res.body.data;
}

/** Waits until no record of the link is pending; returns them all. */
export async function settled(m: TestMerchant, count: number, what = 'records synced'): Promise<any[]> {
  return eventually(
    async () => {
      const all = await syncRecords(m);
      return all.length >= count && all.every((r) => r.status !== 'pending') ? all : undefined;
    },
    what,
    600,
    100,
  );
}
