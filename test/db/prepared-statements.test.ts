// Hot SQL runs as prepared statements (src/db/statement-names.ts, docs/database.md): named from
// its second use, prepared once per connection, and prepared afresh after a migration changed
// the columns a prepared statement returns.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createDb, type Db } from '../../src/db/client';
import { dropDatabase, ensureDatabase } from '../../src/db/migrate';

describe('prepared statements (database)', function () {
  this.timeout(60_000);
  const base = new URL(process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres');
  base.pathname = `/billing_prep_${process.pid}_${randomBytes(3).toString('hex')}`;
  const url = base.toString();
  const opened: Db[] = [];
  const open = (preparedStatements?: number) => {
    // One connection, so the catalog query below sees the statements of the connection that ran them.
    const db = createDb(url, { poolSize: 1, ...(preparedStatements === undefined ? {} : { preparedStatements }) });
    opened.push(db);
    return db;
  };
  /** This connection's prepared statements on the probe table (the catalog query itself has no parameters, so it is never prepared). */
  const preparedRows = (db: Db) =>
    db.$queryRawUnsafe<Array<{ name: string; statement: string }>>(`SELECT name, statement FROM pg_prepared_statements WHERE statement LIKE '%prep_probe%' ORDER BY name`);
  const prepared = async (db: Db) => (await preparedRows(db)).map((r) => r.statement);
  const namesOf = async (db: Db, sql: string) => (await preparedRows(db)).filter((r) => r.statement === sql).map((r) => r.name);

  before(async () => {
    await ensureDatabase(url);
    const db = open(0);
    await db.$executeRawUnsafe('CREATE TABLE prep_probe (a int NOT NULL)');
    await db.$executeRawUnsafe('INSERT INTO prep_probe (a) VALUES (1), (2)');
  });
  after(async () => {
    for (const db of opened) await db.$disconnect().catch(() => undefined);
    await dropDatabase(url);
  });

  it('prepares a statement on its second use and runs it prepared from then on, with the same results', async () => {
    const db = open();
    const sql = 'SELECT a FROM prep_probe WHERE a >= $1 ORDER BY a';
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await db.$queryRawUnsafe<Array<{ a: number }>>(sql, 1));
    for (const r of results) assert.deepEqual(r, [{ a: 1 }, { a: 2 }]);
    assert.deepEqual(await prepared(db), [sql]);
    // Inside a transaction too (the transaction's connection is the pool's one connection).
    const inTx = await db.$transaction(async (tx) => tx.$queryRawUnsafe<Array<{ a: number }>>(sql, 2));
    assert.deepEqual(inTx, [{ a: 2 }]);
    assert.deepEqual(await prepared(db), [sql]);
  });

  it('prepares nothing with preparedStatements 0', async () => {
    const db = open(0);
    for (let i = 0; i < 4; i++) await db.$queryRawUnsafe('SELECT count(*)::int AS n FROM prep_probe WHERE a > $1', 0);
    assert.deepEqual(await prepared(db), []);
  });

  const backend = async (db: Db) => (await db.$queryRawUnsafe<Array<{ pid: number }>>('SELECT pg_backend_pid() AS pid'))[0]!.pid;

  it('after a migration changes a prepared statement’s columns, fails that execution once; the pool replaces the connection', async () => {
    const db = open();
    const sql = 'SELECT * FROM prep_probe WHERE a = $1';
    for (let i = 0; i < 3; i++) assert.deepEqual(await db.$queryRawUnsafe(sql, 1), [{ a: 1 }]);
    assert.deepEqual(await prepared(db), [sql]);
    const pid = await backend(db);
    await open(0).$executeRawUnsafe('ALTER TABLE prep_probe ADD COLUMN b int NOT NULL DEFAULT 7');
    await assert.rejects(db.$queryRawUnsafe(sql, 1), /cached plan must not change result type/);
    for (let i = 0; i < 2; i++) assert.deepEqual(await db.$queryRawUnsafe(sql, 1), [{ a: 1, b: 7 }]);
    assert.notEqual(await backend(db), pid, 'a connection whose query failed outside a transaction is not reused');
    await open(0).$executeRawUnsafe('ALTER TABLE prep_probe DROP COLUMN b');
  });

  it('inside a transaction, the stale statement fails once; the same connection prepares it again under a new name', async () => {
    const db = open();
    const sql = 'SELECT * FROM prep_probe WHERE a = $1 OR a = 2 ORDER BY a';
    const inTx = () => db.$transaction(async (tx) => tx.$queryRawUnsafe(sql, 1));
    for (let i = 0; i < 3; i++) assert.deepEqual(await inTx(), [{ a: 1 }, { a: 2 }]);
    const [before] = await namesOf(db, sql);
    assert.match(before ?? '', /^b0_/);
    const pid = await backend(db);
    await open(0).$executeRawUnsafe("ALTER TABLE prep_probe ADD COLUMN c text NOT NULL DEFAULT 'x'");
    await assert.rejects(inTx(), /cached plan must not change result type/);
    for (let i = 0; i < 2; i++)
      assert.deepEqual(await inTx(), [
        { a: 1, c: 'x' },
        { a: 2, c: 'x' },
      ]);
    assert.equal(await backend(db), pid, 'the transaction’s connection stayed in the pool');
    const after = await namesOf(db, sql);
    assert.ok(after.includes(before!) && after.some((n) => n.startsWith('b1_')), JSON.stringify(after));
  });
});
