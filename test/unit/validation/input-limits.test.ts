import assert from 'node:assert/strict';
import { findBodyProblem, findQueryProblem, INPUT_LIMITS, isWellFormedId } from '../../../src/validation/input-limits';
import { boundedText, codePointLength, excerpt, isStorableText } from '../../../src/validation/text';

/** `levels` nested arrays around 1, built without recursion. */
function nested(levels: number): unknown {
  let v: unknown = 1;
  for (let i = 0; i < levels; i++) v = [v];
  return v;
}

describe('text rules (src/validation/text.ts)', () => {
  it('counts code points: a surrogate pair once, a lone surrogate once', () => {
    assert.equal(codePointLength('abc'), 3);
    assert.equal(codePointLength('😀😀'), 2);
    assert.equal(codePointLength('a\ud800b'), 3);
    assert.equal(codePointLength('\udc00\ud83d\ude00'), 2);
  });

  it('storable text has no NUL and no lone surrogate', () => {
    assert.equal(isStorableText('plain ☕ 😀'), true);
    for (const bad of ['a\u0000', '\ud800', 'x\udfffy', '\ude00\ud83d']) assert.equal(isStorableText(bad), false, JSON.stringify(bad));
  });

  it('an excerpt is short and escaped', () => {
    assert.equal(excerpt('abc'), 'abc');
    assert.equal(excerpt('x'.repeat(100)), `${'x'.repeat(32)}…`);
    assert.equal(excerpt('a\u0000"\\\n\ud800😀'), 'a\\u0000\\"\\\\\\u000a\\ud800😀');
    assert.equal(excerpt({ toString: () => 'obj' }), 'obj');
  });

  it('bounded text is cut and escaped, and left alone when short and plain', () => {
    assert.equal(boundedText('fine message', 500), 'fine message');
    assert.equal(boundedText('y'.repeat(600), 500), `${'y'.repeat(500)}…`);
    assert.equal(boundedText('a\u0000b\ud800', 500), 'a\\u0000b\\ud800');
  });
});

describe('input limits (src/validation/input-limits.ts)', () => {
  it('accepts ordinary bodies', () => {
    assert.equal(findBodyProblem({}), null);
    assert.equal(findBodyProblem({ name: 'Anna', amount: 100, metadata: { plan: 'gold' }, items: [{ price: 'price_1', quantity: 2 }], flag: true, none: null }), null);
    assert.equal(findBodyProblem({ events: Array.from({ length: 1_000 }, (_, i) => ({ event_name: 'api_call', metadata: { n: String(i) } })) }), null);
    assert.equal(findBodyProblem({ deep: nested(INPUT_LIMITS.maxDepth - 1) }), null);
  });

  it('names the path of the first problem, in document order', () => {
    // param is the top-level field (as in every validation error); the message names the exact place.
    const first = findBodyProblem({ a: 'ok', b: { c: [1, 'x\u0000'] }, d: '\ud800' });
    assert.equal(first?.param, 'b');
    assert.match(first!.message, /^b\.c\[1\] must not contain NUL/);
    const odd = findBodyProblem({ metadata: { 'odd key': '\ud800' } });
    assert.equal(odd?.param, 'metadata');
    assert.match(odd!.message, /^metadata\["odd key"\] must be valid Unicode/);
    assert.deepEqual(findBodyProblem({ metadata: { ['k\u0000']: 'v' } })?.param, 'metadata');
    assert.deepEqual(findBodyProblem({ 'top key': '\u0000' })?.param, '["top key"]');
    assert.equal(findBodyProblem({ n: Infinity })?.param, 'n');
    assert.equal(findBodyProblem({ n: Number.NaN })?.param, 'n');
  });

  it('refuses nesting beyond the limit without recursing into it', () => {
    const p = findBodyProblem({ name: nested(100_000) });
    assert.equal(p?.param, 'name');
    assert.match(p!.message, /nested too deeply/);
    assert.equal(findBodyProblem({ a: { b: { c: nested(40) } } })?.param, 'a');
    assert.ok(findBodyProblem({ a: { ['k'.repeat(255)]: { ['l'.repeat(255)]: '\u0000' } } })!.message.length <= 300);
    assert.equal(findBodyProblem({ deep: nested(INPUT_LIMITS.maxDepth) })?.message.includes('nested too deeply'), true);
  });

  it('bounds strings, keys and collections', () => {
    assert.equal(findBodyProblem({ s: 'x'.repeat(INPUT_LIMITS.maxStringLength) }), null);
    assert.equal(findBodyProblem({ s: '😀'.repeat(INPUT_LIMITS.maxStringLength) }), null, 'code points, not UTF-16 units');
    assert.equal(findBodyProblem({ s: 'x'.repeat(INPUT_LIMITS.maxStringLength + 1) })?.param, 's');
    assert.equal(findBodyProblem({ o: { ['k'.repeat(INPUT_LIMITS.maxKeyLength + 1)]: 1 } })?.param, 'o');
    assert.equal(findBodyProblem({ a: new Array(INPUT_LIMITS.maxArrayItems + 1).fill(0) })?.param, 'a');
    assert.equal(findBodyProblem({ o: Object.fromEntries(Array.from({ length: INPUT_LIMITS.maxObjectKeys + 1 }, (_, i) => [`k${i}`, 0])) })?.param, 'o');
  });

  it('messages never carry more than a short excerpt of the value', () => {
    const huge = 'SECRET'.repeat(10_000);
    for (const body of [{ s: huge }, { o: { [huge.slice(0, 300)]: 1 } }, { s: `${huge.slice(0, 500)}\u0000` }]) {
      const p = findBodyProblem(body)!;
      assert.ok(p.message.length < 200, p.message);
    }
  });

  it('checks query names and values', () => {
    assert.equal(findQueryProblem({ limit: '10', starting_after: 'cus_1' }), null);
    assert.equal(findQueryProblem({ starting_after: 'cus_\u0000' })?.param, 'starting_after');
    assert.equal(findQueryProblem({ customer: ['a', 'b\u0000'] })?.param, 'customer');
    assert.equal(findQueryProblem({ email: 'x'.repeat(INPUT_LIMITS.maxQueryValueLength + 1) })?.param, 'email');
    assert.equal(findQueryProblem({ ['\u0000']: '1' })?.param, 'query');
    assert.equal(findQueryProblem(Object.fromEntries(Array.from({ length: INPUT_LIMITS.maxQueryParams + 1 }, (_, i) => [`p${i}`, '1'])))?.param, 'query');
  });

  it('well-formed ids', () => {
    for (const ok of ['cus_1', 'a', 'x'.repeat(255), 'evt-ABC_09']) assert.equal(isWellFormedId(ok), true, ok);
    for (const bad of ['', 'x'.repeat(256), 'cus 1', 'cus_\u0000', 'café', '../x', 'a/b', undefined, 5]) assert.equal(isWellFormedId(bad), false, String(bad));
  });
});
