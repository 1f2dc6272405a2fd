// Every model with merchantId + mode columns must be in TENANT_MODELS (and only those), so the
// scoped client filters it: a new table cannot silently escape tenant isolation.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { TENANT_MODELS } from '../../src/db/tenancy';

const schemaDir = path.resolve(__dirname, '..', '..', '..', 'prisma', 'schema');

function modelsWithTenantColumns(): string[] {
  const out: string[] = [];
  for (const f of readdirSync(schemaDir).filter((x) => x.endsWith('.prisma'))) {
    const text = readFileSync(path.join(schemaDir, f), 'utf8');
    for (const m of text.matchAll(/^model\s+(\w+)\s*\{([\s\S]*?)^\}/gm)) {
      const body = m[2]!;
      if (/^\s+merchantId\s+String\b/m.test(body) && /^\s+mode\s+Mode\b/m.test(body)) out.push(m[1]!);
    }
  }
  return out.sort();
}

describe('tenant models', () => {
  it('TENANT_MODELS lists exactly the models that carry merchantId and mode', () => {
    const expected = modelsWithTenantColumns();
    assert.ok(expected.includes('ApiKey'));
    assert.deepEqual([...TENANT_MODELS].sort(), expected);
  });
});
