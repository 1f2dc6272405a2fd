// Workflow code must stay deterministic and free of I/O: no Node built-ins, database, domain,
// gateway or HTTP modules (type-only imports of activity types are fine), no Math.random, and
// time only through workflows/subscription/time.ts (the SDK's deterministic Date).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '..', '..', '..');
const dir = path.join(root, 'workflows');

function files(d: string): string[] {
  return readdirSync(d).flatMap((f) => {
    const p = path.join(d, f);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
}

const ALLOWED_VALUE_IMPORTS = [/^@temporalio\/workflow$/, /^@temporalio\/common$/, /^\.\.?\//];
const FORBIDDEN_TARGETS = [/\/src\/(db|domain|gateways|runtime|bin|generated)\//, /\/api\//, /\/activities\//, /\/src\/events\//];

describe('workflow code purity', () => {
  const all = files(dir);
  it('finds the workflow files', () => assert.ok(all.length >= 8, `${all.length} files`));
  for (const file of all) {
    const rel = path.relative(root, file);
    it(rel, () => {
      const text = readFileSync(file, 'utf8');
      const code = text.replace(/\/\/.*$/gm, '').replace(/\/\*[\s\S]*?\*\//g, '');
      for (const m of code.matchAll(/^import\s+(type\s+)?[\s\S]*?from\s+'([^']+)';/gm)) {
        const typeOnly = Boolean(m[1]);
        const target = m[2]!;
        if (typeOnly) continue;
        assert.ok(
          ALLOWED_VALUE_IMPORTS.some((r) => r.test(target)),
          `${rel} imports ${target}`,
        );
        const resolved = path.resolve(path.dirname(file), target);
        assert.ok(!FORBIDDEN_TARGETS.some((r) => r.test(resolved + '/')), `${rel} imports ${target} (I/O code)`);
      }
      assert.doesNotMatch(code, /Math\.random\s*\(/, `${rel} uses Math.random`);
      if (!rel.endsWith(path.join('subscription', 'time.ts'))) {
        assert.doesNotMatch(code, /Date\.now\s*\(|new Date\(\s*\)/, `${rel} reads the clock directly`);
      }
    });
  }
});
