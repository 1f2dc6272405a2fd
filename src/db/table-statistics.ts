// Planner statistics and dead rows when the PostgreSQL server runs with autovacuum off
// (docs/database.md "When autovacuum is off").
//
// With autovacuum off nothing ANALYZEs a table or VACUUMs its dead rows. The service's tables
// start empty and grow, so the planner keeps planning them as the few rows they once held: a
// lookup by id walks a (merchant_id, mode, …) index filtering on the id, and an updated row's
// old versions stay in every index. Every statement's cost then grows with the merchant's rows
// (the soak benchmark measured buffers per call growing 4× in a few minutes, issue 28). Some
// servers run that way (this workplace's CI machines do), so a worker process does autovacuum's
// two jobs itself, with autovacuum's default thresholds, while the server's setting is off:
//   ANALYZE a table once more than 50 + 10 % of its rows changed since its last analyze;
//   VACUUM (ANALYZE) it once more than 50 + 20 % of its rows are dead.
// At most one process at a time does it (a session advisory lock), a few tables per round, the
// stalest first. With autovacuum on, a round reads one setting and does nothing.
import { withPooledConnection, type Db } from './client';

/** The session advisory lock the guard holds while it works (one process at a time). */
const GUARD_LOCK = 7_302_028_001;
const MAX_TABLES_PER_ROUND = 8;

export interface StatisticsRound {
  /** The server's autovacuum setting ('off' is when the guard works). */
  autovacuum: boolean;
  analyzed: string[];
  vacuumed: string[];
  /** Another process held the guard's lock: this round did nothing. */
  skipped: boolean;
}

interface StaleTable {
  relname: string;
  vacuum: boolean;
}

const STALE_SQL = `
  SELECT relname, n_dead_tup > 50 + 0.2 * greatest(n_live_tup, 0) AS vacuum,
         greatest(n_mod_since_analyze / (50 + 0.1 * greatest(n_live_tup, 0)), n_dead_tup / (50 + 0.2 * greatest(n_live_tup, 0))) AS staleness
    FROM pg_stat_user_tables
   WHERE schemaname = current_schema()
     AND (n_mod_since_analyze > 50 + 0.1 * greatest(n_live_tup, 0) OR n_dead_tup > 50 + 0.2 * greatest(n_live_tup, 0))
   ORDER BY staleness DESC
   LIMIT $1`;

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * One round: when autovacuum is off (or `evenWithAutovacuum`), ANALYZE the tables whose statistics
 * are stale and VACUUM (ANALYZE) those full of dead rows, at most `maxTables`, stalest first.
 */
export async function refreshStaleTableStatistics(db: Db, opts: { maxTables?: number; evenWithAutovacuum?: boolean } = {}): Promise<StatisticsRound> {
  return withPooledConnection(db, async (client) => {
    const setting = await client.query<{ on: boolean }>(`SELECT current_setting('autovacuum') = 'on' AS on`);
    const autovacuum = setting.rows[0]!.on;
    const round: StatisticsRound = { autovacuum, analyzed: [], vacuumed: [], skipped: false };
    if (autovacuum && !opts.evenWithAutovacuum) return round;
    const lock = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1) AS ok', [GUARD_LOCK]);
    if (!lock.rows[0]!.ok) return { ...round, skipped: true };
    try {
      const stale = await client.query<StaleTable>(STALE_SQL, [opts.maxTables ?? MAX_TABLES_PER_ROUND]);
      for (const t of stale.rows) {
        // Outside a transaction (VACUUM cannot run in one); each statement commits on its own.
        await client.query(`${t.vacuum ? 'VACUUM (ANALYZE)' : 'ANALYZE'} ${quoteIdent(t.relname)}`);
        (t.vacuum ? round.vacuumed : round.analyzed).push(t.relname);
      }
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [GUARD_LOCK]);
    }
    return round;
  });
}

/**
 * Runs a round every `intervalSeconds` (0: never) until stopped, logging what a round did and,
 * once, that the server runs without autovacuum. A failed round is logged and the next one runs.
 */
export function startTableStatisticsGuard(db: Db, opts: { intervalSeconds: number; log: (line: string) => void }): { stop(): Promise<void> } {
  if (opts.intervalSeconds <= 0) return { stop: async () => undefined };
  let told = false;
  let running: Promise<void> | null = null;
  const round = async () => {
    try {
      const r = await refreshStaleTableStatistics(db);
      if (!r.autovacuum && !told) {
        told = true;
        opts.log(
          `PostgreSQL runs with autovacuum off: this worker ANALYZEs tables with stale statistics and VACUUMs those full of dead rows every ${opts.intervalSeconds} s (DB_STATISTICS_GUARD_SECONDS; docs/database.md)`,
        );
      }
      if (r.analyzed.length || r.vacuumed.length) {
        opts.log(`table statistics: analyzed ${r.analyzed.join(', ') || 'none'}; vacuumed ${r.vacuumed.join(', ') || 'none'}`);
      }
    } catch (err) {
      opts.log(`table statistics round failed (the next runs in ${opts.intervalSeconds} s): ${(err as Error).message}`);
    }
  };
  const timer = setInterval(() => {
    if (running) return;
    running = round().finally(() => {
      running = null;
    });
  }, opts.intervalSeconds * 1000);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
