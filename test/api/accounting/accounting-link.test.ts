// The accounting link through the API (docs/accounting.md): providers, connect/complete/callback,
// the link, disconnect, chart of accounts, VAT codes, settings checked against the provider, the
// sync log and re-sync, the move to `error` and back, encryption at rest. The providers are the
// real sandbox HTTP services on loopback (test/support/env.ts).
import assert from 'node:assert/strict';
import { testEnv, type TestEnv } from '../../support/env';
import { call, expectError, newMerchant } from '../../support/api';
import { attachCard, createCustomer, paidPayment, settledRefund } from '../payments/fixtures';
import { eventually } from '../subscriptions/fixtures';
import { maybeRecordHistory } from '../../support/histories';
import { authorizeOAuth, connectForm, settled, syncRecords } from './fixtures';

describe('accounting link', function () {
  this.timeout(120_000);
  let env: TestEnv;
  before(async () => {
    env = await testEnv();
  });

  const merchant = () => newMerchant(env, { live: true });

  it('lists the providers of the key’s mode', async () => {
    const m = await merchant();
    const test = await m.call('GET', '/v1/accounting_link/providers');
    assert.deepEqual(test.body.data, [
      { id: 'sandbox_oauth', name: 'Sandbox Books (OAuth)', auth_type: 'oauth', mode: 'test' },
      { id: 'sandbox_form', name: 'Sandbox Bókhald (API token)', auth_type: 'form', mode: 'test' },
    ]);
    const live = await m.call('GET', '/v1/accounting_link/providers', { key: m.liveSecretKey! });
    assert.deepEqual(
      live.body.data.map((p: any) => [p.id, p.auth_type]),
      [
        ['xero', 'oauth'],
        ['dk', 'form'],
      ],
    );
  });

  it('refuses bad connect and complete requests', async () => {
    const m = await merchant();
    expectError(await m.call('POST', '/v1/accounting_link/connect', { body: {} }), 400, 'validation_failed', 'provider');
    expectError(await m.call('POST', '/v1/accounting_link/connect', { body: { provider: 'nope', mode: 'test' } }), 400, 'validation_failed', 'provider');
    expectError(await m.call('POST', '/v1/accounting_link/connect', { body: { provider: 'sandbox_oauth', mode: 'prod' } }), 400, 'validation_failed', 'mode');
    // mode defaults to live: a test key must say test
    expectError(await m.call('POST', '/v1/accounting_link/connect', { body: { provider: 'sandbox_oauth' } }), 400, 'validation_failed', 'mode');
    expectError(await m.call('POST', '/v1/accounting_link/connect', { body: { provider: 'xero', mode: 'test' } }), 400, 'validation_failed', 'provider');
    // live mode without a configured real provider fails clearly
    expectError(await m.call('POST', '/v1/accounting_link/connect', { key: m.liveSecretKey!, body: { provider: 'xero' } }), 503, 'adapter_not_configured', 'provider');
    expectError(
      await m.call('POST', '/v1/accounting_link/complete', { key: m.liveSecretKey!, body: { provider: 'dk', credentials: { api_token: 'x', company_id: 'y' } } }),
      503,
      'adapter_not_configured',
    );
    expectError(await m.call('POST', '/v1/accounting_link/complete', { body: { provider: 'sandbox_oauth', credentials: {} } }), 409, 'invalid_state', 'provider');
    expectError(await m.call('POST', '/v1/accounting_link/complete', { body: { provider: 'sandbox_form' } }), 400, 'validation_failed', 'credentials');
    expectError(await m.call('POST', '/v1/accounting_link/complete', { body: { provider: 'sandbox_form', credentials: 'token' } }), 400, 'validation_failed', 'credentials');
    expectError(
      await m.call('POST', '/v1/accounting_link/complete', { body: { provider: 'sandbox_form', credentials: { api_token: 'x' } } }),
      400,
      'validation_failed',
      'credentials.company_id',
    );
    const company = env.sandboxes.form.createCompany();
    expectError(
      await m.call('POST', '/v1/accounting_link/complete', { body: { provider: 'sandbox_form', credentials: { api_token: 'wrong', company_id: company.id } } }),
      400,
      'validation_failed',
      'credentials',
    );
    // nothing was connected by any of these
    expectError(await m.call('GET', '/v1/accounting_link'), 404, 'resource_missing');
    expectError(await m.call('DELETE', '/v1/accounting_link'), 404, 'resource_missing');
    expectError(await m.call('GET', '/v1/accounting_link/chart_of_accounts'), 404, 'resource_missing');
  });

  it('form provider: complete → active link; credentials never returned and stored only encrypted; chart, VAT codes and validated settings', async () => {
    const m = await merchant();
    const connect = await m.call('POST', '/v1/accounting_link/connect', { body: { provider: 'sandbox_form', mode: 'test' } });
    assert.deepEqual(connect.body, { redirect_url: null, auth_type: 'form', credentials_fields: ['api_token', 'company_id'] });
    const { link, company } = await connectForm(env, m, { settings: false });
    assert.match(link.id, /^al_/);
    assert.deepEqual([link.object, link.provider, link.status, link.mode], ['accounting_link', 'sandbox_form', 'active', 'test']);
    assert.ok(!JSON.stringify(link).includes(company.apiToken));
    const row = await env.db.accountingLink.findUniqueOrThrow({ where: { id: link.id } });
    assert.ok(!row.credentials.includes(company.apiToken) && !Buffer.from(row.credentials).toString('base64').includes(company.apiToken));
    assert.match(row.credentials, /^v1\./);
    assert.deepEqual((await m.call('GET', '/v1/accounting_link')).body, link);

    const chart = (await m.call('GET', '/v1/accounting_link/chart_of_accounts')).body.data;
    assert.ok(chart.some((a: any) => a.code === '3000' && a.type === 'revenue'));
    const codes = (await m.call('GET', '/v1/accounting_link/vat_codes')).body.data;
    assert.deepEqual(
      codes.map((c: any) => [c.code, c.rate]),
      [
        ['S24', 24],
        ['S11', 11],
        ['S0', 0],
      ],
    );

    expectError(await m.call('POST', '/v1/accounting_link/settings', { body: {} }), 400, 'validation_failed');
    expectError(await m.call('POST', '/v1/accounting_link/settings', { body: { default_gl_account: '9999' } }), 400, 'validation_failed', 'default_gl_account');
    expectError(await m.call('POST', '/v1/accounting_link/settings', { body: { default_gl_account: 3000 } }), 400, 'validation_failed', 'default_gl_account');
    expectError(
      await m.call('POST', '/v1/accounting_link/settings', { body: { vat_code_mapping: { standard: 'OUTPUT24' } } }),
      400,
      'validation_failed',
      'vat_code_mapping.standard',
    );
    expectError(await m.call('POST', '/v1/accounting_link/settings', { body: { vat_code_mapping: { super: 'S24' } } }), 400, 'validation_failed', 'vat_code_mapping.super');
    expectError(await m.call('POST', '/v1/accounting_link/settings', { body: { vat_code_mapping: ['S24'] } }), 400, 'validation_failed', 'vat_code_mapping');
    const ok = await m.call('POST', '/v1/accounting_link/settings', { body: { default_gl_account: '3000', vat_code_mapping: { standard: 'S24', exempt: 'S0' } } });
    assert.equal(ok.status, 200, ok.text);
    assert.deepEqual(ok.body, { default_gl_account: '3000', vat_code_mapping: { standard: 'S24', exempt: 'S0' } });
    assert.deepEqual((await m.call('GET', '/v1/accounting_link')).body.settings, ok.body);
    // another merchant sees nothing of it
    const other = await newMerchant(env);
    expectError(await other.call('GET', '/v1/accounting_link'), 404, 'resource_missing');
    expectError(await m.call('GET', '/v1/accounting_link', { key: m.liveSecretKey! }), 404, 'resource_missing');
  });

  it('syncs what the ledger posts after connecting: invoice, payment, credit note and refund, exactly once with our posting id as reference', async () => {
    const m = await merchant();
    const before = await paidPayment(m, 5000); // posted before the link: never synced
    const { company } = await connectForm(env, m);
    const buyer = await createCustomer(m, {
      name: 'Jón Jónsson',
      kennitala: '1201743399',
      billing_address_line1: 'Laugavegur 1',
      billing_postal_code: '101',
      billing_city: 'Reykjavík',
      billing_country: 'IS',
    });
    const pm = await attachCard(m, buyer.id);
    const payment = (await m.call('POST', '/v1/payments', { body: { amount: 12_400, currency: 'ISK', customer: buyer.id, payment_method: pm.id } })).body;
    assert.equal(payment.status, 'succeeded');
    const refund = (await m.call('POST', '/v1/refunds', { body: { payment: payment.id, amount: 1240 } })).body;
    await settledRefund(env, m, refund.id);
    const records = await settled(m, 4);
    assert.equal(records.length, 4);
    assert.deepEqual(records.map((r) => [r.kind, r.status]).sort(), [
      ['credit_note', 'synced'],
      ['invoice_finalized', 'synced'],
      ['invoice_paid', 'synced'],
      ['refund', 'synced'],
    ]);
    assert.ok(records.every((r) => r.invoice === payment.invoice && /^asr_/.test(r.id) && r.provider_id));
    const books = env.sandboxes.form.records().filter((r) => r.tenant === company.id);
    assert.equal(books.length, 4);
    assert.deepEqual(new Set(books.map((b) => b.reference)), new Set(records.map((r) => r.posting)));
    assert.ok(books.every((b) => b.posts === 1));
    assert.ok(!books.some((b) => JSON.stringify(b.body).includes(before.payment.invoice)));
    const invoice = books.find((b) => b.type === 'invoice')!;
    // 12400 incl. 24 % VAT: 10000 net + 2400 VAT on the default GL account with code S24
    assert.deepEqual(invoice.body.lines, [{ description: 'Sales (standard VAT)', account_code: '3000', vat_code: 'S24', net_amount: 10_000, vat_amount: 2400 }]);
    assert.equal(invoice.body.total, 12_400);
    const payments = books.filter((b) => b.type === 'payment').map((b) => [b.body.method, b.body.amount, b.body.invoice_reference]);
    assert.deepEqual(payments.sort(), [
      ['card', 12_400, invoice.reference],
      ['card_refund', -1240, invoice.reference],
    ]);
    const cn = books.find((b) => b.type === 'credit_note')!;
    assert.deepEqual([cn.body.total, cn.body.invoice_reference, (cn.body.lines as any[])[0].vat_amount], [1240, invoice.reference, 240]);
    // Both sales documents name the buyer: name, kennitala and address as on the customer.
    const expectedBuyer = {
      id: buyer.id,
      name: 'Jón Jónsson',
      email: buyer.email,
      kennitala: '1201743399',
      address: { line1: 'Laugavegur 1', line2: null, postal_code: '101', city: 'Reykjavík', country: 'IS' },
    };
    assert.deepEqual(invoice.body.customer, expectedBuyer);
    assert.deepEqual(cn.body.customer, expectedBuyer);
  });

  it('both sandboxes file the buyer (name, kennitala, address) on every document: invoice, credit note, void, payment, refund; the replaced link’s records stay listable', async () => {
    const m = await merchant();
    const buyer = await createCustomer(m, {
      name: 'Guðrún Helgadóttir',
      kennitala: '1201743399',
      billing_address_line1: 'Skólavörðustígur 12',
      billing_address_line2: '3. hæð',
      billing_postal_code: '101',
      billing_city: 'Reykjavík',
      billing_country: 'IS',
    });
    const expectedBuyer = {
      id: buyer.id,
      name: 'Guðrún Helgadóttir',
      email: buyer.email,
      kennitala: '1201743399',
      address: { line1: 'Skólavörðustígur 12', line2: '3. hæð', postal_code: '101', city: 'Reykjavík', country: 'IS' },
    };
    const pm = await attachCard(m, buyer.id);
    // Every kind of document: a paid payment (invoice + payment), a partial refund (credit note +
    // negative payment) and a payment canceled unpaid (invoice + its void as a credit note).
    const everyKind = async () => {
      const paid = (await m.call('POST', '/v1/payments', { body: { amount: 6200, currency: 'ISK', customer: buyer.id, payment_method: pm.id } })).body;
      assert.equal(paid.status, 'succeeded');
      const refund = (await m.call('POST', '/v1/refunds', { body: { payment: paid.id, amount: 620 } })).body;
      await settledRefund(env, m, refund.id);
      const unpaid = (await m.call('POST', '/v1/payments', { body: { amount: 3100, currency: 'ISK', customer: buyer.id } })).body;
      assert.equal((await m.call('POST', `/v1/payments/${unpaid.id}/cancel`, { body: {} })).status, 200);
      const records = await settled(m, 6);
      assert.deepEqual(records.map((r) => [r.kind, r.status]).sort(), [
        ['credit_note', 'synced'],
        ['invoice_finalized', 'synced'],
        ['invoice_finalized', 'synced'],
        ['invoice_paid', 'synced'],
        ['invoice_voided', 'synced'],
        ['refund', 'synced'],
      ]);
      return records;
    };
    const filed = (books: Array<{ type: string; reference: string; body: Record<string, unknown> }>, records: any[]) => {
      const mine = books.filter((b) => records.some((r) => r.posting === b.reference));
      assert.equal(mine.length, records.length);
      assert.deepEqual(mine.map((b) => b.type).sort(), ['credit_note', 'credit_note', 'invoice', 'invoice', 'payment', 'payment']);
      for (const b of mine) assert.deepEqual(b.body.customer, expectedBuyer, `${b.type} ${b.reference}: the buyer as on the customer`);
      assert.deepEqual(
        mine
          .filter((b) => b.type === 'payment')
          .map((b) => [b.body.method, b.body.amount])
          .sort(),
        [
          ['card', 6200],
          ['card_refund', -620],
        ],
      );
    };

    // The form sandbox first.
    const { link: formLink, company } = await connectForm(env, m);
    const formRecords = await everyKind();
    filed(
      env.sandboxes.form.records().filter((r) => r.tenant === company.id),
      formRecords,
    );

    // The merchant moves to the OAuth provider: the form link is replaced (disconnected).
    const c = await m.call('POST', '/v1/accounting_link/connect', { body: { provider: 'sandbox_oauth', mode: 'test' } });
    assert.equal(c.status, 200, c.text);
    const { callback } = await authorizeOAuth(c.body.redirect_url);
    const cb = await call(env, 'GET', new URL(callback).pathname + new URL(callback).search);
    assert.deepEqual([cb.status, cb.body.provider, cb.body.status], [200, 'sandbox_oauth', 'active'], cb.text);
    assert.equal((await env.db.accountingLink.findUniqueOrThrow({ where: { id: formLink.id } })).status, 'disconnected');
    const s = await m.call('POST', '/v1/accounting_link/settings', {
      body: { default_gl_account: '3000', vat_code_mapping: { standard: 'OUTPUT24', reduced: 'OUTPUT11', exempt: 'EXEMPTOUTPUT' } },
    });
    assert.equal(s.status, 200, s.text);
    const oauthRecords = await everyKind();
    assert.ok(oauthRecords.every((r) => r.link === cb.body.id));
    filed(env.sandboxes.oauth.records(), oauthRecords);

    // The audit trail of both providers stays readable: the replaced link's records by `link`.
    assert.deepEqual(
      (await syncRecords(m, `&link=${formLink.id}`)).map((r) => [r.id, r.status, r.provider_id]).sort(),
      formRecords.map((r) => [r.id, r.status, r.provider_id]).sort(),
    );
    assert.deepEqual((await syncRecords(m)).map((r) => r.id).sort(), oauthRecords.map((r) => r.id).sort());
  });

  it('rides out 429 and 500 answers and a lost response; a refused record fails with the provider message and re-syncs after the fix', async () => {
    const m = await merchant();
    const { company } = await connectForm(env, m, { settings: false });
    await m.call('POST', '/v1/accounting_link/settings', { body: { default_gl_account: '3000', vat_code_mapping: { exempt: 'S0' } } }); // no mapping for standard
    env.sandboxes.form.injectFaults({ status: 429, count: 2, retryAfterSeconds: 1 });
    env.sandboxes.form.injectFaults({ status: 500, count: 2 });
    const { payment } = await paidPayment(m, 3100);
    const records = await settled(m, 2);
    const fin = records.find((r) => r.kind === 'invoice_finalized');
    assert.equal(fin.status, 'failed');
    assert.match(fin.provider_message, /No VAT code is mapped for the rate 'standard'/);
    const paid = records.find((r) => r.kind === 'invoice_paid');
    assert.equal(paid.status, 'synced');
    assert.ok(paid.attempts >= 2, `attempts ${paid.attempts}`);
    expectError(await m.call('POST', `/v1/accounting_link/sync_records/${paid.id}/resync`), 409, 'invalid_state', 'id');
    expectError(await m.call('POST', '/v1/accounting_link/sync_records/asr_nope/resync'), 404, 'resource_missing', 'id');
    assert.deepEqual(
      (await syncRecords(m, '&status=failed')).map((r) => r.id),
      [fin.id],
    );

    await m.call('POST', '/v1/accounting_link/settings', { body: { vat_code_mapping: { standard: 'S24', exempt: 'S0' } } });
    env.sandboxes.form.injectFaults({ status: 503, count: 1, afterCommit: true }); // booked, but the answer is lost
    const again = await m.call('POST', `/v1/accounting_link/sync_records/${fin.id}/resync`);
    assert.equal(again.status, 200, again.text);
    assert.equal(again.body.status, 'pending');
    const done = await eventually(async () => {
      const r = (await syncRecords(m)).find((x) => x.id === fin.id);
      return r.status === 'synced' ? r : undefined;
    }, 're-synced');
    assert.ok(done.provider_id);
    const books = env.sandboxes.form.records().filter((r) => r.tenant === company.id);
    assert.equal(books.length, 2);
    const inv = books.find((b) => b.type === 'invoice')!;
    assert.equal(inv.posts, 2, 'the retry after the lost answer was deduplicated by reference');
    assert.equal(inv.id, done.provider_id);
    assert.equal(payment.amount, 3100);
  });

  it('consent revoked: the link goes to error with an event, syncing waits; connecting again makes a new active link that carries on', async () => {
    const m = await merchant();
    const { link, company } = await connectForm(env, m);
    env.sandboxes.form.revoke(company.id);
    await paidPayment(m, 2000);
    const errored = await eventually(async () => {
      const l = (await m.call('GET', '/v1/accounting_link')).body;
      return l.status === 'error' ? l : undefined;
    }, 'link in error');
    assert.equal(errored.id, link.id);
    assert.match(errored.status_reason, /revoked/);
    const event = await env.db.event.findFirst({ where: { merchantId: m.id, type: 'accounting_link.error' } });
    assert.equal((event?.data as any)?.id, link.id);
    expectError(await m.call('GET', '/v1/accounting_link/vat_codes'), 409, 'invalid_state', 'accounting_link');
    assert.ok((await syncRecords(m)).every((r) => r.status === 'pending'));

    env.sandboxes.form.restore(company.id);
    const again = await m.call('POST', '/v1/accounting_link/complete', {
      body: { provider: 'sandbox_form', credentials: { api_token: company.apiToken, company_id: company.id } },
    });
    assert.equal(again.status, 201, again.text);
    assert.equal(again.body.status, 'active');
    assert.deepEqual(again.body.settings, errored.settings, 'a reconnection keeps the settings');
    assert.equal((await env.db.accountingLink.findUniqueOrThrow({ where: { id: link.id } })).status, 'disconnected');
    await paidPayment(m, 2500);
    const fresh = await settled(m, 2, 'the new link’s records');
    assert.deepEqual(
      fresh.map((r) => r.status),
      ['synced', 'synced'],
    );
    assert.ok(fresh.every((r) => r.link === again.body.id));
    // The replaced link's records stay readable (the audit trail of what went to which provider).
    const old = await syncRecords(m, `&link=${link.id}`);
    assert.ok(old.length > 0 && old.every((r) => r.link === link.id), JSON.stringify(old));
    assert.ok(!old.some((r) => fresh.some((f) => f.id === r.id)));
    assert.deepEqual((await syncRecords(m, `&link=${again.body.id}`)).map((r) => r.id).sort(), fresh.map((r) => r.id).sort());
    expectError(await m.call('GET', '/v1/accounting_link/sync_records?link=al_nope'), 404, 'resource_missing', 'link');
  });

  it('DELETE stops syncing at once: 204, disconnected, nothing more reaches the provider; repeating is safe', async () => {
    const m = await merchant();
    const { company } = await connectForm(env, m);
    await paidPayment(m, 1000);
    await settled(m, 2);
    const del = await m.call('DELETE', '/v1/accounting_link');
    assert.equal(del.status, 204);
    assert.equal(del.text, '');
    const l = (await m.call('GET', '/v1/accounting_link')).body;
    assert.equal(l.status, 'disconnected');
    assert.ok(l.disconnected_at);
    await paidPayment(m, 1500);
    const count = () => env.sandboxes.form.records().filter((r) => r.tenant === company.id).length;
    assert.equal(count(), 2);
    assert.equal((await syncRecords(m)).length, 2, 'nothing is queued for a disconnected link');
    assert.equal((await m.call('DELETE', '/v1/accounting_link')).status, 204);
    expectError(await m.call('GET', '/v1/accounting_link/chart_of_accounts'), 404, 'resource_missing');
    const handle = env.client.workflow.getHandle(`accounting-sync/${l.id}`);
    assert.deepEqual(await handle.result(), { linkId: l.id, stopped: true });
    await maybeRecordHistory(handle, 'accounting-sync-stopped');
    assert.equal(count(), 2);
  });

  it('OAuth: connect gives the authorization URL; the callback checks state (single use, bound to the provider, expiring) and stores tokens encrypted; refresh before expiry; revoked consent → error', async () => {
    const m = await merchant();
    const c = await m.call('POST', '/v1/accounting_link/connect', { body: { provider: 'sandbox_oauth', mode: 'test' } });
    assert.equal(c.status, 200, c.text);
    const url = new URL(c.body.redirect_url);
    assert.equal(url.origin, env.sandboxes.oauth.url);
    assert.equal(url.searchParams.get('redirect_uri'), `${env.config.publicBaseUrl}/v1/accounting_link/callback/sandbox_oauth`);
    const state = url.searchParams.get('state')!;
    assert.ok(state.length >= 40);
    // the state is stored only as a hash
    assert.equal(await env.db.accountingOAuthState.count({ where: { stateHash: state } }), 0);

    const { callback } = await authorizeOAuth(c.body.redirect_url);
    const wrongProvider = callback.replace('/callback/sandbox_oauth', '/callback/sandbox_form');
    expectError(await call(env, 'GET', new URL(wrongProvider).pathname + new URL(wrongProvider).search), 400, 'oauth_state_invalid', 'state');
    const cb = await call(env, 'GET', new URL(callback).pathname + new URL(callback).search);
    assert.equal(cb.status, 200, cb.text);
    assert.deepEqual([cb.body.provider, cb.body.status], ['sandbox_oauth', 'active']);
    expectError(await call(env, 'GET', new URL(callback).pathname + new URL(callback).search), 400, 'oauth_state_invalid', 'state');
    expectError(await call(env, 'GET', '/v1/accounting_link/callback/sandbox_oauth?state=forged&code=x'), 400, 'oauth_state_invalid', 'state');
    expectError(await call(env, 'GET', '/v1/accounting_link/callback/sandbox_oauth'), 400, 'oauth_state_invalid', 'state');

    // an expired state, and a denied authorization
    const late = await m.call('POST', '/v1/accounting_link/connect', { body: { provider: 'sandbox_oauth', mode: 'test' } });
    await env.db.accountingOAuthState.updateMany({ where: { merchantId: m.id, usedAt: null }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const lateCb = (await authorizeOAuth(late.body.redirect_url)).callback;
    expectError(await call(env, 'GET', new URL(lateCb).pathname + new URL(lateCb).search), 400, 'oauth_state_invalid', 'state');
    const denied = await m.call('POST', '/v1/accounting_link/connect', { body: { provider: 'sandbox_oauth', mode: 'test' } });
    const deniedCb = (await authorizeOAuth(denied.body.redirect_url, 'deny')).callback;
    expectError(await call(env, 'GET', new URL(deniedCb).pathname + new URL(deniedCb).search), 400, 'oauth_state_invalid', 'error');
    assert.equal((await m.call('GET', '/v1/accounting_link')).body.id, cb.body.id);

    const row = await env.db.accountingLink.findUniqueOrThrow({ where: { id: cb.body.id } });
    assert.ok(!/at_|rt_/.test(row.credentials), 'tokens are not readable at rest');
    // An access token about to expire is refreshed before use (and the refresh token rotates).
    await env.db.accountingLink.update({ where: { id: row.id }, data: { accessTokenExpiresAt: new Date(Date.now() + 30_000) } });
    const codes = await m.call('GET', '/v1/accounting_link/vat_codes');
    assert.deepEqual(
      codes.body.data.map((v: any) => v.code),
      ['OUTPUT24', 'OUTPUT11', 'EXEMPTOUTPUT'],
    );
    const refreshed = await env.db.accountingLink.findUniqueOrThrow({ where: { id: row.id } });
    assert.notEqual(refreshed.credentials, row.credentials);
    assert.ok(refreshed.accessTokenExpiresAt!.getTime() > Date.now() + 600_000);

    // Consent revoked at the provider: the next refresh is refused → error, with the event.
    env.sandboxes.oauth.revoke();
    try {
      await env.db.accountingLink.update({ where: { id: row.id }, data: { accessTokenExpiresAt: new Date(Date.now() + 30_000) } });
      expectError(await m.call('GET', '/v1/accounting_link/chart_of_accounts'), 409, 'invalid_state', 'accounting_link');
      const l = (await m.call('GET', '/v1/accounting_link')).body;
      assert.equal(l.status, 'error');
      assert.match(l.status_reason, /consent revoked|invalid_grant|refresh/);
    } finally {
      env.sandboxes.oauth.restore();
    }
  });

  it('the sync log is paged and refuses bad input', async () => {
    const m = await merchant();
    expectError(await m.call('GET', '/v1/accounting_link/sync_records'), 404, 'resource_missing');
    await connectForm(env, m);
    await paidPayment(m, 700);
    await paidPayment(m, 800);
    const all = await settled(m, 4);
    const p1 = (await m.call('GET', '/v1/accounting_link/sync_records?limit=3')).body;
    const p2 = (await m.call('GET', `/v1/accounting_link/sync_records?limit=3&starting_after=${p1.data[2].id}`)).body;
    assert.deepEqual([p1.has_more, p2.has_more], [true, false]);
    assert.deepEqual(
      [...p1.data, ...p2.data].map((r: any) => r.id),
      all.map((r) => r.id),
    );
    expectError(await m.call('GET', '/v1/accounting_link/sync_records?status=done'), 400, 'validation_failed', 'status');
    expectError(await m.call('GET', '/v1/accounting_link/sync_records?starting_after=asr_nope'), 404, 'resource_missing', 'starting_after');
  });
});
