// The Temporal CLI build's progress line (src/temporal/dev-server.ts BuildProgress): the phase,
// a count that moves and the elapsed time, from `go install -v` output.
import assert from 'node:assert/strict';
import { BuildProgress } from '../../../src/temporal/dev-server';

describe('Temporal CLI build progress', () => {
  it('names the phase, counts what was done, and says when the output has gone quiet', () => {
    const p = new BuildProgress();
    assert.match(p.describe(2000), /^resolving the module; 2 s elapsed$/);
    p.line('go: downloading github.com/temporalio/cli v1.5.1');
    p.line('go: downloading cel.dev/expr v0.24.0');
    assert.match(p.describe(30_000), /^downloading modules: 2 so far \(latest cel\.dev\/expr v0\.24\.0\); 30 s elapsed$/);
    p.line('internal/goarch');
    p.line('go.temporal.io/server/common/log');
    assert.match(p.describe(95_000), /^compiling: 2 package\(s\) so far \(latest go\.temporal\.io\/server\/common\/log\); 95 s elapsed$/);
    // Nothing for a while: said so, rather than repeating the last line as if it were current.
    assert.match(p.describe(140_000, Date.now() + 45_000), /no output for 45 s/);
    assert.equal(p.lastLines(), 'go: downloading github.com/temporalio/cli v1.5.1 | go: downloading cel.dev/expr v0.24.0 | internal/goarch | go.temporal.io/server/common/log');
  });
});
