import assert from 'node:assert/strict';
import { scriptBucket, summarise } from '../../../bench/cpu-profile';

describe('bench/cpu-profile: where a V8 CPU profile spent its time', () => {
  it('puts a script in its npm package, our top folder, node internals or a V8 entry', () => {
    assert.equal(scriptBucket('file:///app/node_modules/@prisma/client/runtime/client.js', 'Hn'), '@prisma/client');
    assert.equal(scriptBucket('file:///app/node_modules/pg/lib/client.js', 'query'), 'pg');
    assert.equal(scriptBucket('file:///app/dist/src/db/client.js', 'query'), 'ours: src');
    assert.equal(scriptBucket('node:internal/stream_base_commons', 'writevGeneric'), 'node:internal');
    assert.equal(scriptBucket('', '(garbage collector)'), '(garbage collector)');
    assert.equal(scriptBucket('', 'writev'), '(native)');
  });

  it('sums self time per sample node, by package and by function, as shares of the samples', () => {
    const frame = (functionName: string, url: string) => ({ functionName, url, lineNumber: 9 });
    const profile = {
      nodes: [
        { id: 1, callFrame: frame('(root)', ''), children: [2, 3] },
        { id: 2, callFrame: frame('query', 'file:///app/node_modules/pg/lib/client.js'), children: [4] },
        { id: 3, callFrame: frame('(idle)', '') },
        { id: 4, callFrame: frame('handle', 'file:///app/dist/api/routes/x.js') },
      ],
      // 3 samples in pg's query (30 µs), 1 in our handler (10 µs), 6 idle (60 µs)
      samples: [2, 2, 2, 4, 3, 3, 3, 3, 3, 3],
      timeDeltas: [10, 10, 10, 10, 10, 10, 10, 10, 10, 10],
      startTime: 0,
      endTime: 100,
    };
    const lines = summarise(profile, 10);
    const share = (label: string) =>
      lines
        .find((l) => l.endsWith(label))
        ?.trim()
        .split(' ')[0];
    assert.equal(share(' (idle)'), '60.0');
    assert.equal(share(' pg'), '30.0');
    assert.equal(share(' ours: api'), '10.0');
    assert.ok(lines.some((l) => l.includes('query node_modules/pg/lib/client.js:10')));
  });
});
