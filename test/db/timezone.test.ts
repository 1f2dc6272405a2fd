// Raw SQL with JS Date parameters must mean the same instant whatever the database's default
// time zone (the driver adapter sends Dates without a zone; createDb pins sessions to UTC).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { createDb } from '../../src/db/client';
import { dropDatabase, ensureDatabase } from '../../src/db/migrate';

describe('database sessions and time zones', function () {
  this.timeout(60_000);
  const base = new URL(process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres');
  base.pathname = `/billing_tz_${process.pid}_${randomBytes(3).toString('hex')}`;
  const url = base.toString();
  after(() => dropDatabase(url));

  it('reads Date parameters as UTC instants on a database whose default zone is Asia/Tokyo', async () => {
    await ensureDatabase(url);
    const admin = new Client({ connectionString: url });
    await admin.connect();
    await admin.query(`ALTER DATABASE "${base.pathname.slice(1)}" SET timezone = 'Asia/Tokyo'`);
    await admin.end();
    const db = createDb(url, { poolSize: 1 });
    try {
      const at = new Date('2026-03-01T12:00:00.000Z');
      const rows = await db.$queryRaw<Array<{ same: boolean; zone: string }>>`
        SELECT ${at}::timestamptz = ${at.toISOString()}::timestamptz AS same, current_setting('TimeZone') AS zone`;
      assert.equal(rows[0]!.zone, 'UTC');
      assert.equal(rows[0]!.same, true);
    } finally {
      await db.$disconnect();
    }
  });
});
