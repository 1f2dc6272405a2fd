// Invoice and credit note documents (docs/invoice-documents.md): the merchant's business details
// set through the `billing` CLI, then GET /v1/invoices/{id}/pdf|html and
// /v1/credit_notes/{id}/pdf|html. The PDF's text is read back (pdf-parse) and checked against
// the invoice the API returns: numbers, parties, lines, VAT, claim reference, Icelandic letters.
import assert from 'node:assert/strict';
import { envAndMerchants, type TestEnv } from '../../support/env';
import { billing } from '../../support/cli';
import { expectError, newMerchant, type TestMerchant } from '../../support/api';
import { eventually, ok } from '../subscriptions/fixtures';
import { paidPayment, settledRefund } from '../payments/fixtures';
import { portalCustomer } from './fixtures';
import { formatAmount } from '../../../src/billing/currency';
import { pdfText } from '../../support/pdf';

async function fetchDocument(env: TestEnv, m: TestMerchant, p: string): Promise<{ status: number; type: string; buf: Buffer; headers: Headers }> {
  const res = await fetch(`${env.baseUrl}${p}`, { headers: { Authorization: `Bearer ${m.secretKey}`, 'X-Merchant-Id': m.id } });
  return { status: res.status, type: res.headers.get('content-type') ?? '', buf: Buffer.from(await res.arrayBuffer()), headers: res.headers };
}

const isk = (n: number) => formatAmount(n, 'ISK');

describe('invoice documents (PDF and HTML)', function () {
  this.timeout(120_000);
  let env: TestEnv, m: TestMerchant;
  before(async () => ([env, m] = await envAndMerchants(newMerchant)));

  it('business details are merchant settings managed with the CLI (checked, shown, cleared)', async () => {
    const set = await billing(env, [
      'merchants',
      'details',
      m.id,
      '--legal-name',
      'Þjónustan ehf.',
      '--kennitala',
      '590269-7199',
      '--vat-number',
      '123456',
      '--address-line1',
      'Ármúli 4',
      '--postal-code',
      '108',
      '--city',
      'Reykjavík',
      '--country',
      'is',
      '--support-email',
      'hjalp@thjonustan.is',
      '--json',
    ]);
    assert.equal(set.code, 0, set.stderr);
    const shown = JSON.parse(set.stdout);
    assert.deepEqual(shown, {
      merchant_id: m.id,
      legal_name: 'Þjónustan ehf.',
      kennitala: '5902697199',
      vat_number: '123456',
      address_line1: 'Ármúli 4',
      address_line2: null,
      postal_code: '108',
      city: 'Reykjavík',
      country: 'IS',
      support_email: 'hjalp@thjonustan.is',
    });
    const bad = await billing(env, ['merchants', 'details', m.id, '--kennitala', '12345']);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /kennitala/);
    const badMail = await billing(env, ['merchants', 'details', m.id, '--support-email', 'nope']);
    assert.equal(badMail.code, 1);
    assert.match(badMail.stderr, /support_email/);
    const read = JSON.parse((await billing(env, ['merchants', 'details', m.id, '--json'])).stdout);
    assert.equal(read.kennitala, '5902697199', 'a refused change changed nothing');

    const settings = await billing(env, ['portal', 'settings', m.id, '--allow-cancel', 'false', '--return-url', 'https://thjonustan.is/min-sida', '--json']);
    assert.equal(settings.code, 0, settings.stderr);
    const s = JSON.parse(settings.stdout);
    assert.deepEqual([s.allow_cancel, s.allow_update_payment_methods, s.return_url], [false, true, 'https://thjonustan.is/min-sida']);
    assert.equal((await billing(env, ['portal', 'settings', m.id, '--allow-cancel', 'maybe'])).code, 2);
    assert.equal(JSON.parse((await billing(env, ['portal', 'settings', m.id, '--allow-cancel', 'true', '--json'])).stdout).allow_cancel, true);
  });

  it('a subscription invoice: the PDF carries the number, dates, both parties, the line with its period, VAT and totals', async () => {
    const pc = await portalCustomer(m, { amount: 12_990 });
    const listed = (await ok(m.call('GET', `/v1/invoices?subscription=${pc.subscription.id}`))).data[0];
    const inv = await eventually(async () => {
      const i = await ok(m.call('GET', `/v1/invoices/${listed.id}`));
      return i.status === 'paid' ? i : undefined;
    }, 'invoice paid');
    const pdf = await fetchDocument(env, m, `/v1/invoices/${inv.id}/pdf?locale=is`);
    assert.equal(pdf.status, 200);
    assert.equal(pdf.type, 'application/pdf');
    assert.match(pdf.headers.get('content-disposition') ?? '', /attachment; filename="invoice-[A-Za-z0-9._-]+\.pdf"/);
    assert.equal(pdf.buf.subarray(0, 5).toString(), '%PDF-');
    assert.ok(pdf.buf.includes(Buffer.from('DejaVuSans')), 'the font is embedded');
    const text = await pdfText(pdf.buf);
    for (const expected of [
      'Reikningur',
      inv.number,
      'Þjónustan ehf.',
      '590269-7199',
      'VSK-númer: 123456',
      'Ármúli 4',
      '108 Reykjavík',
      'Guðrún Ósk Þórðardóttir',
      '120174-3399',
      'Laugavegur 7',
      '101 Reykjavík',
      'Plan',
      'Greiddur',
      'hjalp@thjonustan.is',
    ]) {
      assert.ok(text.includes(expected), `the PDF shows ${expected}:\n${text}`);
    }
    const line = inv.lines.find((l: any) => l.kind === 'licensed');
    assert.ok(text.includes(isk(line.amount)), `line amount ${isk(line.amount)}`);
    assert.ok(text.includes(`${isk(inv.total)}`), `total ${isk(inv.total)}`);
    assert.equal(inv.total, 12_990);
    // VAT as the invoice carries it: 24 % included in 12.990 kr. is 2.514 kr.
    assert.equal(inv.vat_amount, 2514);
    assert.ok(text.includes(isk(inv.vat_amount)), 'the VAT amount');
    assert.ok(text.includes(`VSK 24 % af ${isk(inv.total - inv.vat_amount)}`), `VAT breakdown row:\n${text}`);
    // Period of the line: the first month, printed as its first and last day.
    const start = new Date(line.period_start);
    assert.ok(text.includes(`${start.getUTCDate()}. `), 'the period');
    // English as well.
    const en = await pdfText((await fetchDocument(env, m, `/v1/invoices/${inv.id}/pdf`)).buf);
    assert.ok(en.includes('Invoice') && en.includes('Amount due') && en.includes(isk(0)), en);

    const html = await fetchDocument(env, m, `/v1/invoices/${inv.id}/html?locale=is`);
    assert.equal(html.status, 200);
    assert.match(html.type, /text\/html/);
    assert.match(html.headers.get('content-security-policy') ?? '', /default-src 'none'/);
    assert.doesNotMatch(html.buf.toString(), /<script/i);
    const page = html.buf.toString();
    for (const expected of [inv.number, 'Þjónustan ehf.', 'Guðrún Ósk Þórðardóttir', isk(inv.total), isk(inv.vat_amount)]) assert.ok(page.includes(expected), expected);
  });

  it('a credit note has its documents; a refund of 2.500 kr. credits 2.500 kr. against the invoice', async () => {
    const { payment } = await paidPayment(m, 10_000);
    const refund = (await m.call('POST', '/v1/refunds', { body: { payment: payment.id, amount: 2500, reason: 'requested_by_customer' } })).body;
    await settledRefund(env, m, refund.id);
    const cn = (await ok(m.call('GET', `/v1/credit_notes?invoice=${payment.invoice}`))).data[0];
    const inv = await ok(m.call('GET', `/v1/invoices/${payment.invoice}`));
    const pdf = await fetchDocument(env, m, `/v1/credit_notes/${cn.id}/pdf?locale=is`);
    assert.equal(pdf.status, 200);
    const text = await pdfText(pdf.buf);
    for (const expected of ['Kreditreikningur', cn.id, inv.number, isk(-2500), 'requested_by_customer', 'Þjónustan ehf.']) {
      assert.ok(text.includes(expected), `the credit note shows ${expected}:\n${text}`);
    }
    assert.ok(text.includes(isk(-cn.vat_amount)), `its VAT ${isk(-cn.vat_amount)}`);
    const html = await fetchDocument(env, m, `/v1/credit_notes/${cn.id}/html`);
    assert.ok(html.buf.toString().includes('Credit note'));
    // The payment's own invoice has documents too.
    assert.equal((await fetchDocument(env, m, `/v1/invoices/${payment.invoice}/pdf`)).status, 200);
  });

  it('a bank invoice shows its claim reference', async () => {
    const cus = await ok(m.call('POST', '/v1/customers', { body: { email: 'krafa@example.is', name: 'Björk Ólafsdóttir', kennitala: '1201743399' } }), 201);
    const price = await ok(
      m.call('POST', '/v1/prices', {
        body: {
          product: (await ok(m.call('POST', '/v1/products', { body: { name: 'Áskrift' } }), 201)).id,
          type: 'recurring',
          currency: 'ISK',
          unit_amount: 7900,
          recurring: { interval: 'month' },
        },
      }),
      201,
    );
    const sub = await ok(
      m.call('POST', '/v1/subscriptions', { body: { customer: cus.id, items: [{ price: price.id }], collection_method: 'send_invoice', days_until_due: 14 } }),
      201,
    );
    const inv = await eventually(async () => {
      const list = (await ok(m.call('GET', `/v1/invoices?subscription=${sub.id}`))).data;
      const i = list[0];
      if (!i || i.status !== 'open') return undefined;
      const claim = await env.db.invoiceBankClaim.findFirst({ where: { invoiceId: i.id } });
      return claim ? { ...i, claim } : undefined;
    }, 'open bank invoice with its claim');
    const text = await pdfText((await fetchDocument(env, m, `/v1/invoices/${inv.id}/pdf?locale=is`)).buf);
    assert.ok(text.includes(inv.claim.bankReference), `claim reference ${inv.claim.bankReference}:\n${text}`);
    assert.ok(text.includes('Gjalddagi'));
    assert.ok(text.includes(isk(7900)));
  });

  it('refusals: unknown, foreign and publishable-key requests; locale must be is or en', async () => {
    const other = await newMerchant(env);
    const { payment } = await paidPayment(m, 1000);
    expectError(await other.call('GET', `/v1/invoices/${payment.invoice}/pdf`), 404, 'resource_missing', 'id');
    expectError(await m.call('GET', '/v1/invoices/inv_nope/html'), 404, 'resource_missing', 'id');
    expectError(await m.call('GET', '/v1/credit_notes/cn_nope/pdf'), 404, 'resource_missing', 'id');
    expectError(await m.call('GET', `/v1/invoices/${payment.invoice}/pdf?locale=de`), 400, 'validation_failed', 'locale');
    const pk = await fetch(`${env.baseUrl}/v1/invoices/${payment.invoice}/pdf`, { headers: { Authorization: `Bearer ${m.publishableKey}`, 'X-Merchant-Id': m.id } });
    assert.equal(pk.status, 403);
  });
});
