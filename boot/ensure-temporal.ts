// Obtains the Temporal CLI before the test suite starts (building it once into the user cache
// on a fresh machine, with progress lines), so no test hook has to wait minutes for it.
import { ensureTemporalCli } from '../src/temporal/dev-server';
import { fail, log } from './common';

if (process.env.TEST_TEMPORAL_ADDRESS) {
  process.exit(0);
}
ensureTemporalCli(log).then((path) => {
  log(`Temporal CLI: ${path}`);
  process.exit(0);
}, fail);
