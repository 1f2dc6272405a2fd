// Temporal workflows import src/billing, so it must stay deterministic and self-contained:
// no imports outside the folder (so no Node built-ins), no clock, no randomness, no environment.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

// dist/test/unit/billing → repository root
const BILLING_DIR = resolve(__dirname, '../../../../src/billing');

function withoutComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

describe('billing/purity of src/billing', () => {
  const files = readdirSync(BILLING_DIR).filter((name) => name.endsWith('.ts'));

  it('finds the billing sources', () => {
    assert.ok(files.includes('index.ts'), `no index.ts in ${BILLING_DIR}`);
  });

  const forbidden: Array<[string, RegExp]> = [
    ['Date.now', /\bDate\.now\b/],
    ['Math.random', /\bMath\.random\b/],
    ['new Date() without an argument', /new Date\(\s*\)/],
    ['process', /\bprocess\./],
    ['require', /\brequire\s*\(/],
    ['dynamic import', /\bimport\s*\(/],
    ['setTimeout / setInterval', /\bset(Timeout|Interval|Immediate)\b/],
  ];

  for (const file of files) {
    describe(file, () => {
      const source = withoutComments(readFileSync(join(BILLING_DIR, file), 'utf8'));
      it('imports only from ./ inside src/billing', () => {
        const specifiers = [...source.matchAll(/\bfrom\s+['"]([^'"]+)['"]/g)].map((m) => m[1]);
        for (const specifier of specifiers) {
          assert.match(specifier, /^\.\/[a-z-]+$/, `${file} imports ${specifier}`);
        }
      });
      for (const [what, pattern] of forbidden) {
        it(`does not use ${what}`, () => {
          assert.doesNotMatch(source, pattern);
        });
      }
    });
  }
});
