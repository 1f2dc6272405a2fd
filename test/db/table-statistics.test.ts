// The table-statistics guard (src/db/table-statistics.ts): on a server running with autovacuum off
// a worker ANALYZEs tables whose statistics are stale and VACUUMs those full of dead rows, with
// autovacuum's default thresholds, one process at a time. On a database of its own, so the tables
// a round may pick are only its own.
import assert from 'node:assert/strict';
import { Client } from 'pg';
import { createDb, type Db } from '../../src/db/client';
import { dropDatabase, ensureDatabase, migrate } from '../../src/db/migrate';
import { refreshStaleTableStatistics } from '../../src/db/table-statistics';
import { scratchDatabaseUrl } from '../support/scratch-database';

/** Waits until PostgreSQL's cumulative statistics show `check` true for the probe table (they are flushed asynchronously). */
async function untilStats(db: Db, check: (s: { mods: number; dead: number; live: number }) => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const [s] = await db.$queryRawUnsafe<Array<{ mods: bigint; dead: bigint; live: bigint }>>(
      `SELECT n_mod_since_analyze AS mods, n_dead_tup AS dead, n_live_tup AS live FROM pg_stat_user_tables WHERE relname = 'stats_probe'`,
    );
    const v = s ? { mods: Number(s.mods), dead: Number(s.dead), live: Number(s.live) } : { mods: 0, dead: 0, live: 0 };
    if (check(v)) return;
    if (Date.now() > deadline) assert.fail(`statistics never showed ${what}: ${JSON.stringify(v)}`);
    await db.$executeRawUnsafe('SELECT pg_stat_clear_snapshot()');
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('table statistics when autovacuum is off', function () {
  this.timeout(120_000);
  let url: string;
  let db: Db;

  before(async () => {
    url = scratchDatabaseUrl('stats_guard');
    await ensureDatabase(url);
    await migrate(url);
    db = createDb(url, { poolSize: 3 });
    await db.$executeRawUnsafe('CREATE TABLE stats_probe (id int PRIMARY KEY, v text)');
  });
  after(async () => {
    await db?.$disconnect();
    await dropDatabase(url).catch(() => undefined);
  });

  it('analyzes a table whose rows changed past the threshold, vacuums one full of dead rows, and leaves fresh tables alone', async () => {
    // Everything the migrations wrote is analyzed first, so the rounds below see the probe alone.
    await refreshStaleTableStatistics(db, { evenWithAutovacuum: true, maxTables: 1000 });

    await db.$executeRawUnsafe(`INSERT INTO stats_probe SELECT g, 'v' || g FROM generate_series(1, 1000) g`);
    await db.$executeRawUnsafe('SELECT pg_stat_force_next_flush()');
    await untilStats(db, (s) => s.mods >= 1000, '1,000 rows changed');
    const [before] = await db.$queryRawUnsafe<Array<{ reltuples: number }>>(`SELECT reltuples FROM pg_class WHERE relname = 'stats_probe'`);
    assert.ok(before!.reltuples <= 0, `never analyzed before the round: ${before!.reltuples}`);

    const first = await refreshStaleTableStatistics(db, { evenWithAutovacuum: true });
    assert.deepEqual([first.analyzed, first.vacuumed, first.skipped], [['stats_probe'], [], false]);
    const [after] = await db.$queryRawUnsafe<Array<{ reltuples: number }>>(`SELECT reltuples FROM pg_class WHERE relname = 'stats_probe'`);
    assert.equal(after!.reltuples, 1000, 'the planner now knows the table holds 1,000 rows');
    await untilStats(db, (s) => s.mods === 0, 'the analyze');

    // Fresh: nothing to do.
    const second = await refreshStaleTableStatistics(db, { evenWithAutovacuum: true });
    assert.deepEqual([second.analyzed, second.vacuumed], [[], []]);

    // 700 of 1,000 rows deleted: more dead rows than 50 + 20 % of the live ones.
    await db.$executeRawUnsafe('DELETE FROM stats_probe WHERE id <= 700');
    await db.$executeRawUnsafe('SELECT pg_stat_force_next_flush()');
    await untilStats(db, (s) => s.dead >= 700, '700 dead rows');
    const third = await refreshStaleTableStatistics(db, { evenWithAutovacuum: true });
    assert.deepEqual([third.analyzed, third.vacuumed], [[], ['stats_probe']]);
    await untilStats(db, (s) => s.dead === 0 && s.live === 300, 'the vacuum');
  });

  it('does nothing while another process holds the guard, and nothing with autovacuum on unless asked', async () => {
    await db.$executeRawUnsafe(`INSERT INTO stats_probe SELECT g, 'w' || g FROM generate_series(2001, 2600) g`);
    await db.$executeRawUnsafe('SELECT pg_stat_force_next_flush()');
    await untilStats(db, (s) => s.mods >= 600, '600 rows changed');
    const other = new Client({ connectionString: url });
    await other.connect();
    try {
      await other.query('SELECT pg_advisory_lock(7302028001)');
      const held = await refreshStaleTableStatistics(db, { evenWithAutovacuum: true });
      assert.deepEqual([held.skipped, held.analyzed, held.vacuumed], [true, [], []]);
    } finally {
      await other.end();
    }
    const [setting] = await db.$queryRawUnsafe<Array<{ on: boolean }>>(`SELECT current_setting('autovacuum') = 'on' AS on`);
    const plain = await refreshStaleTableStatistics(db);
    assert.equal(plain.autovacuum, setting!.on);
    if (setting!.on) assert.deepEqual([plain.analyzed, plain.vacuumed], [[], []], 'autovacuum does the work');
    else assert.deepEqual([plain.analyzed, plain.vacuumed], [['stats_probe'], []], 'the guard does the work');
  });
});
