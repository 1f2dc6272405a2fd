// Which SQL texts run as prepared statements (src/db/statement-names.ts).
import assert from 'node:assert/strict';
import { createStatementNamer, isStalePreparedStatement } from '../../../src/db/statement-names';

describe('statement names (prepared statements)', () => {
  it('names a text from its second use on, with the same name every time', () => {
    const namer = createStatementNamer({ maxStatements: 10 });
    assert.equal(namer.name('SELECT 1', 1), undefined);
    const first = namer.name('SELECT 1', 1);
    assert.match(first ?? '', /^b0_[0-9a-f]{24}$/);
    assert.equal(namer.name('SELECT 1', 1), first);
    assert.equal(namer.named, 1);
  });

  it('gives different texts different names', () => {
    const namer = createStatementNamer({ maxStatements: 10, minUses: 1 });
    const a = namer.name('SELECT $1::int', 1);
    const b = namer.name('SELECT $1::bigint', 1);
    assert.ok(a && b);
    assert.notEqual(a, b);
  });

  it('names at most maxStatements texts; later texts run unnamed, the named ones keep their names', () => {
    const namer = createStatementNamer({ maxStatements: 2, minUses: 1 });
    const a = namer.name('SELECT 1', 1);
    const b = namer.name('SELECT 2', 1);
    assert.ok(a && b);
    assert.equal(namer.name('SELECT 3', 1), undefined);
    assert.equal(namer.name('SELECT 3', 1), undefined);
    assert.equal(namer.name('SELECT 1', 1), a);
    assert.equal(namer.named, 2);
  });

  it('never names a text without parameters (it may hold several commands; it runs in the simple protocol as before)', () => {
    const namer = createStatementNamer({ maxStatements: 10, minUses: 1 });
    for (let i = 0; i < 3; i++) assert.equal(namer.name('TRUNCATE a; TRUNCATE b', 0), undefined);
    assert.equal(namer.named, 0);
  });

  it('never names a text longer than maxSqlLength', () => {
    const namer = createStatementNamer({ maxStatements: 10, minUses: 1, maxSqlLength: 20 });
    const long = `SELECT ${'1 + '.repeat(10)}1`;
    assert.equal(namer.name(long, 1), undefined);
    assert.equal(namer.name(long, 1), undefined);
    assert.ok(namer.name('SELECT 1', 1));
  });

  it('names nothing with maxStatements 0', () => {
    const namer = createStatementNamer({ maxStatements: 0, minUses: 1 });
    for (let i = 0; i < 3; i++) assert.equal(namer.name('SELECT 1', 1), undefined);
    assert.equal(namer.named, 0);
  });

  it('after invalidate(), prepares every text again under a name of the next generation', () => {
    const namer = createStatementNamer({ maxStatements: 1, minUses: 1 });
    const before = namer.name('SELECT 1', 1);
    namer.invalidate();
    assert.equal(namer.generation, 1);
    assert.equal(namer.named, 0);
    const after = namer.name('SELECT 1', 1);
    assert.match(after ?? '', /^b1_/);
    assert.notEqual(after, before);
    // The cap counts the new generation only.
    assert.equal(namer.name('SELECT 2', 1), undefined);
  });

  it('recognizes PostgreSQL refusing a prepared statement whose result columns changed, and nothing else', () => {
    assert.equal(isStalePreparedStatement({ code: '0A000', message: 'cached plan must not change result type' }), true);
    assert.equal(isStalePreparedStatement({ code: '0A000', message: 'cannot use subquery in check constraint' }), false);
    assert.equal(isStalePreparedStatement({ code: '23505', message: 'cached plan must not change result type' }), false);
    assert.equal(isStalePreparedStatement(new Error('cached plan must not change result type')), false);
    assert.equal(isStalePreparedStatement(null), false);
    assert.equal(isStalePreparedStatement('0A000'), false);
  });
});
