import assert from 'node:assert/strict';
import { METADATA_LIMITS, mergeMetadataPatch, validateMetadata, validateMetadataPatch } from '../../../src/validation';

function keys(n: number): Record<string, string> {
  return Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, 'v']));
}

describe('validation/metadata', () => {
  it('limits are 50 keys, 40-character keys, 500-character values', () => {
    assert.deepEqual(METADATA_LIMITS, { maxKeys: 50, maxKeyLength: 40, maxValueLength: 500 });
  });

  describe('validateMetadata', () => {
    const accepted: Array<[string, unknown]> = [
      ['empty object', {}],
      ['string values', { order_id: '6735', channel: 'web' }],
      ['empty string value', { note: '' }],
      ['50 keys', keys(50)],
      ['40-character key', { ['k'.repeat(40)]: 'v' }],
      ['500-character value', { k: 'v'.repeat(500) }],
      ['500 emoji (1000 UTF-16 units, 500 characters)', { k: '😀'.repeat(500) }],
      ['Icelandic key and value', { kennitala_greiðanda: 'Þórður' }],
      ['key named __proto__ (from JSON.parse)', JSON.parse('{"__proto__":"x"}') as unknown],
    ];
    for (const [why, input] of accepted) {
      it(`accepts ${why}`, () => assert.deepEqual(validateMetadata(input), []));
    }

    const rejected: Array<[string, unknown, Array<{ key: string | null; message: RegExp }>]> = [
      ['null', null, [{ key: null, message: /must be an object/ }]],
      ['an array', ['a'], [{ key: null, message: /must be an object/ }]],
      ['a string', 'a=b', [{ key: null, message: /must be an object/ }]],
      ['a Date', new Date(0), [{ key: null, message: /must be an object/ }]],
      ['51 keys', keys(51), [{ key: null, message: /at most 50 keys, got 51/ }]],
      ['41-character key', { ['k'.repeat(41)]: 'v' }, [{ key: 'k'.repeat(41), message: /longer than 40/ }]],
      ['501-character value', { big: 'v'.repeat(501) }, [{ key: 'big', message: /longer than 500/ }]],
      ['key with [', { 'a[b': 'v' }, [{ key: 'a[b', message: /must not contain "\[" or "\]"/ }]],
      ['key with ]', { 'ab]': 'v' }, [{ key: 'ab]', message: /must not contain/ }]],
      ['empty key', { '': 'v' }, [{ key: '', message: /must not be empty/ }]],
      ['number value', { count: 3 }, [{ key: 'count', message: /must be a string$/ }]],
      ['null value outside a patch', { gone: null }, [{ key: 'gone', message: /must be a string$/ }]],
      ['nested object', { a: { b: 'c' } }, [{ key: 'a', message: /must be a string/ }]],
      [
        'several problems, each named',
        { ok: 'v', 'x[1]': 'v', n: true, long: 'z'.repeat(501) },
        [
          { key: 'x[1]', message: /\[/ },
          { key: 'n', message: /string/ },
          { key: 'long', message: /500/ },
        ],
      ],
    ];
    for (const [why, input, expected] of rejected) {
      it(`rejects ${why}`, () => {
        const problems = validateMetadata(input);
        assert.equal(problems.length, expected.length, JSON.stringify(problems));
        expected.forEach((e, i) => {
          assert.equal(problems[i].key, e.key);
          assert.match(problems[i].message, e.message);
        });
      });
    }
  });

  describe('validateMetadataPatch', () => {
    it('allows null values (removals) and a null patch (clear all)', () => {
      assert.deepEqual(validateMetadataPatch({ a: 'x', b: null }), []);
      assert.deepEqual(validateMetadataPatch(null), []);
    });

    it('still checks keys, value types and lengths', () => {
      const problems = validateMetadataPatch({ 'a]': null, b: 1, c: 'v'.repeat(501) });
      assert.deepEqual(
        problems.map((p) => p.key),
        ['a]', 'b', 'c'],
      );
      assert.match(problems[1].message, /or null to remove/);
    });

    it('leaves the 50-key limit to the merged result', () => {
      assert.deepEqual(validateMetadataPatch(keys(51)), []);
      const merged = mergeMetadataPatch(keys(30), Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`n${i}`, 'v'])));
      assert.equal(Object.keys(merged).length, 51);
      assert.equal(validateMetadata(merged)[0].key, null);
    });
  });

  describe('mergeMetadataPatch', () => {
    const existing = { a: '1', b: '2', c: '3' };
    const cases: Array<[string, Record<string, string | null> | null, Record<string, string>]> = [
      ['sets a new key and keeps the rest', { d: '4' }, { a: '1', b: '2', c: '3', d: '4' }],
      ['overwrites a key', { b: 'two' }, { a: '1', b: 'two', c: '3' }],
      ['null removes a key', { b: null }, { a: '1', c: '3' }],
      ['removing an absent key is a no-op', { z: null }, { a: '1', b: '2', c: '3' }],
      ['empty string is a value, not a removal', { a: '' }, { a: '', b: '2', c: '3' }],
      ['empty patch changes nothing', {}, { a: '1', b: '2', c: '3' }],
      ['mixed', { a: null, c: 'x', e: '5' }, { b: '2', c: 'x', e: '5' }],
      ['null patch clears everything', null, {}],
    ];
    for (const [why, patch, expected] of cases) {
      it(why, () => assert.deepEqual(mergeMetadataPatch(existing, patch), expected));
    }

    it('does not modify the existing object', () => {
      const before = { a: '1' };
      mergeMetadataPatch(before, { a: null, b: '2' });
      assert.deepEqual(before, { a: '1' });
    });

    it('treats missing existing metadata as empty', () => {
      assert.deepEqual(mergeMetadataPatch(null, { a: '1', b: null }), { a: '1' });
      assert.deepEqual(mergeMetadataPatch(undefined, {}), {});
    });

    it('keeps a "__proto__" key an ordinary property', () => {
      const patch = JSON.parse('{"__proto__":"x"}') as Record<string, string>;
      const merged = mergeMetadataPatch({}, patch);
      assert.deepEqual(Object.keys(merged), ['__proto__']);
      assert.equal(Object.getPrototypeOf(merged), Object.prototype);
    });
  });
});
