// docs/errors.md must list every error code with its HTTP status, and nothing else.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { errorCatalog } from '../../src/errors';

describe('docs/errors.md', () => {
  it('documents exactly the codes and statuses of src/errors.ts', () => {
    const doc = readFileSync(path.resolve(__dirname, '..', '..', '..', 'docs', 'errors.md'), 'utf8');
    const documented = new Map<string, number>();
    for (const m of doc.matchAll(/^\| `([a-z_]+)` \| (\d{3}) \|/gm)) documented.set(m[1]!, Number(m[2]));
    const actual = new Map(errorCatalog().map((e) => [e.code, e.status]));
    assert.deepEqual([...documented.entries()].sort(), [...actual.entries()].sort());
  });
});
