// The worker's workflow-cache and sticky-queue settings (docs/operations.md "The worker's workflow
// cache and sticky queue"): their defaults, and that a bad value stops the process at start.
import assert from 'node:assert/strict';
import { DEFAULT_STICKY_TIMEOUT_SECONDS, loadConfig } from '../../../src/config';

function withEnv<T>(vars: Record<string, string | undefined>, fn: () => T): T {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  try {
    for (const [k, v] of Object.entries(vars)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    return fn();
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

describe('worker settings (config)', () => {
  it("defaults: the SDK's cache size and sticky timeout (10 s)", () => {
    const config = withEnv({ WORKER_CACHED_WORKFLOWS: undefined, WORKER_STICKY_TIMEOUT_SECONDS: undefined }, () => loadConfig(process.env));
    assert.equal(config.workerCachedWorkflows, undefined);
    assert.equal(config.workerStickyTimeoutSeconds, 10);
    assert.equal(DEFAULT_STICKY_TIMEOUT_SECONDS, 10);
  });

  it('reads both settings', () => {
    const config = withEnv({ WORKER_CACHED_WORKFLOWS: '10500', WORKER_STICKY_TIMEOUT_SECONDS: '300' }, () => loadConfig(process.env));
    assert.equal(config.workerCachedWorkflows, 10_500);
    assert.equal(config.workerStickyTimeoutSeconds, 300);
  });

  for (const [name, value] of [
    ['WORKER_CACHED_WORKFLOWS', '1'],
    ['WORKER_CACHED_WORKFLOWS', 'lots'],
    ['WORKER_CACHED_WORKFLOWS', '2.5'],
    ['WORKER_STICKY_TIMEOUT_SECONDS', '0'],
    ['WORKER_STICKY_TIMEOUT_SECONDS', '3601'],
  ] as const) {
    it(`refuses ${name}=${value}`, () => {
      assert.throws(() => withEnv({ [name]: value }, () => loadConfig(process.env)), new RegExp(`${name} must be an integer`));
    });
  }
});
