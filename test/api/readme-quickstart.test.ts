// The README's "Quickstart" runs as written: its ```sh block is taken from README.md and executed
// with bash against the test server (BASE, KEY and MERCHANT set to the test env's URL and a fresh
// merchant's secret test key), so the README cannot drift from the API.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { testEnv, type TestEnv } from '../support/env';
import { newMerchant } from '../support/api';

const root = path.resolve(__dirname, '..', '..', '..');

/** The shell block(s) of README.md's "## Quickstart" section, in order. */
export function readmeQuickstart(): string {
  const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
  const section = /^## Quickstart[^\n]*\n([\s\S]*?)(?=^## )/m.exec(readme);
  assert.ok(section, 'README.md has a "## Quickstart" section');
  const blocks = [...section[1]!.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
  assert.ok(blocks.length > 0, 'the Quickstart section has a ```sh block');
  return blocks.join('\n');
}

/** Puts the test server's URL and key where the README has the placeholders a human replaces. */
export function pointAt(script: string, vars: { BASE: string; KEY: string; MERCHANT: string }): string {
  let out = script;
  for (const [name, value] of Object.entries(vars)) {
    const line = new RegExp(`^${name}=.*$`, 'm');
    assert.match(out, line, `the Quickstart sets ${name}`);
    out = out.replace(line, `${name}=${value}`);
  }
  return out;
}

async function bash(script: string, cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn('bash', ['-euo', 'pipefail', '-c', script], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  const code = await new Promise<number | null>((res) => child.on('exit', res));
  return { code, stdout, stderr };
}

describe('README quickstart', function () {
  this.timeout(120_000);
  let env: TestEnv;
  let dir: string;
  before(async () => {
    env = await testEnv();
    dir = mkdtempSync(path.join(tmpdir(), 'readme-quickstart-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('the placeholders are the ones npm start prints, and a human would paste the block as is', () => {
    const script = readmeQuickstart();
    assert.match(script, /^BASE=http:\/\/localhost:3000$/m);
    assert.match(script, /^KEY=sk_test_…/m);
    assert.match(script, /^MERCHANT=merch_…/m);
  });

  it('bills a customer end to end: the renewal invoice is paid, its PDF is a PDF, invoice.paid is recorded', async () => {
    const m = await newMerchant(env);
    const script = pointAt(readmeQuickstart(), { BASE: env.baseUrl, KEY: m.secretKey, MERCHANT: m.id });
    const run = await bash(script, dir);
    assert.equal(run.code, 0, `the quickstart failed:\n${run.stdout}\n${run.stderr}`);
    assert.equal(run.stderr, '', run.stderr);

    const invoice = run.stdout
      .split('\n')
      .filter((l) => l.startsWith('{') && l.includes('"number"'))
      .map((l) => JSON.parse(l) as { id: string; status: string; total: number; currency: string })[0];
    assert.ok(invoice, run.stdout);
    assert.equal(invoice.status, 'paid', run.stdout);
    assert.equal(invoice.total, 4990);
    assert.equal(invoice.currency, 'ISK');

    const pdf = readFileSync(path.join(dir, 'invoice.pdf'));
    assert.equal(pdf.subarray(0, 5).toString('latin1'), '%PDF-');
    assert.ok(pdf.length > 1000, `a real document, ${pdf.length} bytes`);
    assert.match(run.stdout, /^%PDF-$/m);

    // Both invoices (the first month at creation, the renewal after the advance) were paid.
    const paidLines = run.stdout.split('\n').filter((l) => l.startsWith('invoice.paid '));
    assert.equal(paidLines.length, 2, run.stdout);
    assert.ok(
      paidLines.some((l) => l === `invoice.paid ${invoice.id} paid`),
      run.stdout,
    );

    // And the service agrees: the subscription is active, the renewal invoice is paid.
    const fetched = await m.call('GET', `/v1/invoices/${invoice.id}`);
    assert.equal(fetched.body.status, 'paid');
    const subs = await m.call('GET', '/v1/subscriptions');
    assert.equal(subs.body.data.length, 1);
    assert.equal(subs.body.data[0].status, 'active');
  });
});
