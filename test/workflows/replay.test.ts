// Every recorded history must replay against the current workflow code: a change that breaks
// determinism fails here (put such a change behind patched()). Histories are recorded with
// RECORD_HISTORIES=1 (test/support/histories.ts).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Worker, bundleWorkflowCode } from '@temporalio/worker';
import { DeterminismViolationError } from '@temporalio/workflow';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { HISTORIES_DIR } from '../support/histories';
import { workflowBundle } from '../../boot/runtime/worker';

const quietLogger = { log: () => undefined, trace: () => undefined, debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

function histories(): Array<{ name: string; history: ReturnType<typeof historyFromJSON> }> {
  return readdirSync(HISTORIES_DIR)
    .filter((f) => f.endsWith('.json'))
    .map((f) => ({ name: f.replace(/\.json$/, ''), history: historyFromJSON(JSON.parse(readFileSync(path.join(HISTORIES_DIR, f), 'utf8'))) }));
}

describe('workflow replay against recorded histories', function () {
  this.timeout(120_000);

  it('has a recorded history for every workflow type', async () => {
    const recorded = new Set(histories().map((h) => h.history.events?.[0]?.workflowExecutionStartedEventAttributes?.workflowType?.name));
    const workflows = Object.keys(await import('../../workflows'));
    for (const wf of workflows) assert.ok(recorded.has(wf), `no recorded history for workflow ${wf}: run RECORD_HISTORIES=1 npm test`);
  });

  for (const { name, history } of histories()) {
    it(`replays ${name}`, async () => {
      await Worker.runReplayHistory({ workflowBundle: await workflowBundle() }, history);
    });
  }

  it('detects a non-deterministic change (the check can fail)', async () => {
    const changed = await bundleWorkflowCode({ workflowsPath: require.resolve('./fixtures/maintenance-changed'), logger: quietLogger });
    const purge = histories().find((h) => h.name === 'purge-expired');
    assert.ok(purge, 'purge-expired history missing');
    await assert.rejects(Worker.runReplayHistory({ workflowBundle: changed }, purge.history), (e: unknown) => e instanceof DeterminismViolationError);
  });
});
