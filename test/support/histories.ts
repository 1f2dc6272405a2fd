// Recorded workflow histories for replay tests live in test/workflows/histories/<name>.json.
// Record or refresh them with `RECORD_HISTORIES=1 npm test` (then review and commit the files).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { WorkflowHandle } from '@temporalio/client';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';

export const HISTORIES_DIR = path.resolve(__dirname, '..', '..', '..', 'test', 'workflows', 'histories');

export async function maybeRecordHistory(handle: WorkflowHandle, name: string): Promise<void> {
  if (process.env.RECORD_HISTORIES !== '1') return;
  const history = await handle.fetchHistory();
  mkdirSync(HISTORIES_DIR, { recursive: true });
  writeFileSync(path.join(HISTORIES_DIR, `${name}.json`), historyToJSON(history));
}
