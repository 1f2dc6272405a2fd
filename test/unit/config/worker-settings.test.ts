// The worker's workflow-cache and sticky-queue settings (docs/operations.md "The worker's workflow
// cache and sticky queue"): their defaults, and that a bad value stops the process at start.
import assert from 'node:assert/strict';
import { DEFAULT_PREPARED_STATEMENTS, DEFAULT_STICKY_TIMEOUT_SECONDS, loadConfig } from '../../../src/config';

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

  it('reads the settings', () => {
    const config = withEnv({ WORKER_CACHED_WORKFLOWS: '10500', WORKER_STICKY_TIMEOUT_SECONDS: '300', WORKER_SHARDS: '4' }, () => loadConfig(process.env));
    assert.equal(config.workerCachedWorkflows, 10_500);
    assert.equal(config.workerStickyTimeoutSeconds, 300);
    assert.equal(config.workerShards, 4);
  });

  it('WORKER_SHARDS unset: left to the worker (one shard per 3,000 cached workflows)', () => {
    assert.equal(withEnv({ WORKER_SHARDS: undefined }, () => loadConfig(process.env)).workerShards, undefined);
  });

  it('reads the environment it is given, not only process.env', () => {
    const config = withEnv({ WORKER_SHARDS: '3', WORKER_CACHED_WORKFLOWS: '900' }, () =>
      loadConfig({ WORKER_SHARDS: '2', WORKER_CACHED_WORKFLOWS: '400', DB_PREPARED_STATEMENTS: '7' }),
    );
    assert.equal(config.workerShards, 2);
    assert.equal(config.workerCachedWorkflows, 400);
    assert.equal(config.dbPreparedStatements, 7);
    assert.equal(withEnv({ WORKER_SHARDS: '3' }, () => loadConfig({})).workerShards, undefined);
  });

  for (const [name, value] of [
    ['WORKER_CACHED_WORKFLOWS', '1'],
    ['WORKER_CACHED_WORKFLOWS', 'lots'],
    ['WORKER_CACHED_WORKFLOWS', '2.5'],
    ['WORKER_STICKY_TIMEOUT_SECONDS', '0'],
    ['WORKER_STICKY_TIMEOUT_SECONDS', '3601'],
    ['WORKER_SHARDS', '0'],
    ['WORKER_SHARDS', '65'],
    ['WORKER_SHARDS', 'two'],
  ] as const) {
    it(`refuses ${name}=${value}`, () => {
      assert.throws(() => withEnv({ [name]: value }, () => loadConfig(process.env)), new RegExp(`${name} must be an integer`));
    });
  }
});

describe('prepared statements setting (config)', () => {
  it('defaults to DEFAULT_PREPARED_STATEMENTS (200) statement texts per process', () => {
    const config = withEnv({ DB_PREPARED_STATEMENTS: undefined }, () => loadConfig(process.env));
    assert.equal(config.dbPreparedStatements, DEFAULT_PREPARED_STATEMENTS);
    assert.equal(DEFAULT_PREPARED_STATEMENTS, 200);
  });

  it('reads DB_PREPARED_STATEMENTS, 0 turning them off', () => {
    assert.equal(withEnv({ DB_PREPARED_STATEMENTS: '0' }, () => loadConfig(process.env)).dbPreparedStatements, 0);
    assert.equal(withEnv({ DB_PREPARED_STATEMENTS: '500' }, () => loadConfig(process.env)).dbPreparedStatements, 500);
  });

  for (const value of ['-1', 'many', '1.5', '10001']) {
    it(`refuses DB_PREPARED_STATEMENTS=${value}`, () => {
      assert.throws(() => withEnv({ DB_PREPARED_STATEMENTS: value }, () => loadConfig(process.env)), /DB_PREPARED_STATEMENTS must be an integer/);
    });
  }
});

describe('table statistics guard setting (config)', () => {
  it('defaults to a round every 30 s; 0 turns it off', () => {
    assert.equal(withEnv({ DB_STATISTICS_GUARD_SECONDS: undefined }, () => loadConfig(process.env)).dbStatisticsGuardSeconds, 30);
    assert.equal(withEnv({ DB_STATISTICS_GUARD_SECONDS: '0' }, () => loadConfig(process.env)).dbStatisticsGuardSeconds, 0);
    assert.equal(withEnv({ DB_STATISTICS_GUARD_SECONDS: '300' }, () => loadConfig(process.env)).dbStatisticsGuardSeconds, 300);
  });

  for (const value of ['-1', 'often', '2.5', '86401']) {
    it(`refuses DB_STATISTICS_GUARD_SECONDS=${value}`, () => {
      assert.throws(() => withEnv({ DB_STATISTICS_GUARD_SECONDS: value }, () => loadConfig(process.env)), /DB_STATISTICS_GUARD_SECONDS must be an integer/);
    });
  }
});
