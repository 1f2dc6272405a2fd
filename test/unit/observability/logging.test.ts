// The logger's redaction and context fields, and the suite's log leak check (which must be able to fail).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createLogger, lineLogger, withRequestLogContext } from '../../../src/observability/logger';
import { redactText, redactValue, REDACTED } from '../../../src/observability/redact';
import { assertNoLeaks, findLeaks, recordSecretsIn, recordedSecrets } from '../../support/secrets';

const KEY = 'sk_test_Abcdefghijklmnopqrstuvwxyz012345';
const PK = 'pk_live_Zyxwvutsrqponmlkjihgfedcba543210';
const WHSEC = 'whsec_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ';
const PAN = '4242424242424242';

describe('log redaction', () => {
  it('removes keys, bearer tokens, webhook secrets, card numbers and secret assignments from text', () => {
    const text = `key ${KEY} and ${PK}; Authorization: Bearer abcdef123456; secret ${WHSEC}; card ${PAN} or 4000 0566 5566 5556; password=hunter22 cvc: 123`;
    const out = redactText(text);
    for (const s of [KEY, PK, 'abcdef123456', WHSEC, PAN, '4000 0566 5566 5556', 'hunter22', '123']) assert.ok(!out.includes(s), `${s} left in: ${out}`);
    assert.ok(out.includes('[redacted]'));
  });

  it('keeps numbers that are not card numbers (amounts, ids, timestamps)', () => {
    const text = 'amount 1999 ISK; invoice in_000VbuSfmm31fDi9r1NLwTKx; at 1764000000000; digits 1234567890123';
    assert.equal(redactText(text), text);
  });

  it('drops the values of secret-named fields at any depth', () => {
    const out = redactValue({
      headers: { authorization: 'Basic xyz', cookie: 'bs_session=abc' },
      body: { card: { card_number: PAN, cvc: '999' }, password: 'p4ss', name: 'Anna' },
    }) as any;
    assert.equal(out.headers.authorization, REDACTED);
    assert.equal(out.headers.cookie, REDACTED);
    assert.equal(out.body.card.card_number, REDACTED);
    assert.equal(out.body.card.cvc, REDACTED);
    assert.equal(out.body.password, REDACTED);
    assert.equal(out.body.name, 'Anna');
  });

  it('a logger writes JSON lines with the request context and never the secrets it was given', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'log-test-'));
    const file = path.join(dir, 'service.log');
    try {
      const logger = createLogger({ service: 'unit', file, level: 'info' });
      withRequestLogContext({ request_id: 'req_unit_1', merchant: 'merch_1', mode: 'test' }, () => {
        logger.info({ body: { number: PAN, api_key: KEY }, authorization: `Bearer ${KEY}` }, `charging ${PAN} with ${KEY}`);
        lineLogger(logger)(`webhook signed with ${WHSEC} failed`);
      });
      logger.error({ err: new Error(`refused ${PK}`) }, 'unhandled');
      const text = readFileSync(file, 'utf8');
      const lines = text
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      assert.equal(lines.length, 3);
      assert.equal(lines[0].request_id, 'req_unit_1');
      assert.equal(lines[0].merchant, 'merch_1');
      assert.equal(lines[0].mode, 'test');
      assert.equal(lines[0].service, 'unit');
      assert.equal(lines[1].level, 'warn');
      assert.equal(lines[2].level, 'error');
      assert.equal(lines[2].request_id, undefined);
      assert.deepEqual(findLeaks(text, [KEY, PK, WHSEC, PAN]), []);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('log leak check', () => {
  it('fails on a planted log line holding a recorded secret, naming its line but not the whole secret', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'leak-test-'));
    const file = path.join(dir, 'service.log');
    try {
      require('node:fs').writeFileSync(file, `{"msg":"fine"}\n{"msg":"charged card ${PAN} for key ${KEY}"}\n`);
      assert.throws(
        () => assertNoLeaks(file, [KEY, 'sk_test_neverLoggedAtAll00000000000']),
        (e: Error) => /line 2/.test(e.message) && !e.message.includes(KEY) && e.message.includes('sk_test'),
      );
      assert.deepEqual(
        findLeaks(readFileSync(file, 'utf8'), [PAN, KEY]).map((l) => l.line),
        [2, 2],
      );
      assert.doesNotThrow(() => assertNoLeaks(file, ['sk_test_neverLoggedAtAll00000000000']));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('records keys, secrets and card numbers from request and response bodies, and every test card', () => {
    recordSecretsIn({ secret: 'sk_test_recordedFromAResponse0001', nested: { card: { number: '5555 5555 5555 4444', cvc: '314159' } }, webhook: { secret: WHSEC } });
    const all = recordedSecrets();
    for (const s of ['sk_test_recordedFromAResponse0001', '5555555555554444', WHSEC, PAN]) assert.ok(all.includes(s), s);
  });
});
