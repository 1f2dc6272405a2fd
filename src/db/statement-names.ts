// Named (prepared) statements for the hot SQL (docs/database.md "Prepared statements").
//
// node-postgres sends a query without a name as an unnamed statement, which PostgreSQL parses
// and plans on every execution: for the renewal's statements (CTEs that write four tables),
// planning cost more than running them (docs/benchmarks.md, session 11). A query with a name is
// parsed once per connection and keeps its plan there (PostgreSQL's plan cache decides between
// a generic plan and one per execution, as for any prepared statement).
//
// Which statements get a name, so that the statements prepared per connection stay few:
// - only a text with parameters: one without runs as today, in the simple protocol (it may hold
//   several commands, which a prepared statement cannot, and utility commands plan nothing);
// - a text only once it has run `minUses` times in this process (a one-off report or a batch
//   insert of a rare size stays unnamed);
// - at most `maxStatements` texts per pool (createDb; the service has one per process), first
//   come; after that, new texts stay unnamed;
// - never a text longer than `maxSqlLength`.
// A name is a hash of the text, so every connection of the pool prepares the same text under the
// same name.
//
// A prepared statement whose result columns change under it (a migration adds a column to a
// table it reads with `*`) fails with "cached plan must not change result type". `invalidate()`
// then starts a new generation of names: every statement is prepared afresh, on every connection,
// from its next use. Only the executions that failed before that fail (an activity retries; an
// API request answers a logged 500 and can be retried with its Idempotency-Key).
import { createHash } from 'node:crypto';

export interface StatementNamerOptions {
  /** Distinct texts named per pool and generation (0: none, every statement unnamed). */
  maxStatements: number;
  /** Executions of a text before it is named. */
  minUses?: number;
  /** Longer texts are never named. */
  maxSqlLength?: number;
}

export interface StatementNamer {
  /** The statement's name, or undefined to run it unnamed. */
  name(sql: string, parameters: number): string | undefined;
  /** Forget every name: the next use of each text prepares it again under a new name. */
  invalidate(): void;
  /** Texts named in the current generation. */
  readonly named: number;
  readonly generation: number;
}

// The default lives with the other settings' defaults (src/config.ts, a foundation this layer may import).
export { DEFAULT_PREPARED_STATEMENTS } from '../config';
const DEFAULT_MIN_USES = 2;
const DEFAULT_MAX_SQL_LENGTH = 16_384;
/** Texts counted but not yet named; the counts start over when this many are pending. */
const MAX_PENDING = 4_096;

export function createStatementNamer(opts: StatementNamerOptions): StatementNamer {
  const minUses = opts.minUses ?? DEFAULT_MIN_USES;
  const maxSqlLength = opts.maxSqlLength ?? DEFAULT_MAX_SQL_LENGTH;
  let generation = 0;
  let names = new Map<string, string>();
  let pending = new Map<string, number>();
  return {
    name(sql, parameters) {
      if (parameters === 0) return undefined;
      const known = names.get(sql);
      if (known !== undefined) return known;
      if (names.size >= opts.maxStatements || sql.length > maxSqlLength) return undefined;
      const uses = (pending.get(sql) ?? 0) + 1;
      if (uses < minUses) {
        if (pending.size >= MAX_PENDING) pending = new Map();
        pending.set(sql, uses);
        return undefined;
      }
      pending.delete(sql);
      const name = `b${generation}_${createHash('sha1').update(sql).digest('hex').slice(0, 24)}`;
      names.set(sql, name);
      return name;
    },
    invalidate() {
      generation += 1;
      names = new Map();
      pending = new Map();
    },
    get named() {
      return names.size;
    },
    get generation() {
      return generation;
    },
  };
}

/** PostgreSQL's refusal to run a prepared statement whose result columns changed (SQLSTATE 0A000). */
export function isStalePreparedStatement(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  return e !== null && typeof e === 'object' && e.code === '0A000' && typeof e.message === 'string' && e.message.includes('cached plan must not change result type');
}
