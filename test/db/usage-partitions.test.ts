// usage_events partitioned by month (issue 32, migration 20261128320100_usage_events_partitioned):
// 1. the migration on a populated database of the old layout: every meter's quantity and every
//    idempotency replay is unchanged, and the old table became the first partition (no copy);
// 2. partition maintenance: months ahead are created, an event no monthly partition covers is
//    kept in the default partition and moved out when its month is created, twice is a no-op;
// 3. retention (off by default): raw events before the horizon are dropped (partitions whole, or
//    rows of a partition straddling it), their keys too; whole-hour quantities stay exact from the
//    rollups, a partial-hour edge before the horizon and an event before it are refused.
import assert from 'node:assert/strict';
import { createDb, prismaSql, type Db } from '../../src/db/client';
import { dropDatabase, ensureDatabase, migrate } from '../../src/db/migrate';
import { databaseBeforeMigration, scratchDatabaseUrl } from '../support/scratch-database';
import { createMerchant } from '../../src/domain/merchants/create-merchant';
import { meterQuantity, rawMeterQuantity } from '../../src/domain/meters/meter-quantity';
import { createMeter } from '../../src/domain/meters/manage-meters';
import { ingestUsageEvents, recordUsageEvent } from '../../src/domain/usage-events/ingest-usage-events';
import { addMonths, applyUsageEventRetention, ensureUsageEventPartitions, monthStart, partitionName, usagePartitions } from '../../src/domain/usage-events/partitions';
import { scopedDb } from '../../src/db/tenancy';
import { newId } from '../../src/ids';
import type { Meter } from '../../src/generated/prisma/client';

const MIGRATION = '20261128320100_usage_events_partitioned';
const HOUR = 3_600_000;

async function where(db: Db, id: string): Promise<string> {
  const rows = await db.$queryRawUnsafe<Array<{ t: string }>>(`SELECT tableoid::regclass::text AS t FROM usage_events WHERE id = $1`, id);
  return rows[0]?.t ?? 'gone';
}

describe('usage_events partitioned by month', function () {
  this.timeout(300_000);

  it('the migration keeps every quantity and idempotency replay of a populated database', async () => {
    const scratch = await databaseBeforeMigration('part_mig', MIGRATION);
    const { db } = scratch;
    try {
      const { merchant } = await createMerchant(db, { name: 'Partition merchant' });
      const tenant = { merchantId: merchant.id, mode: 'test' as const };
      const sdb = scopedDb(db, tenant);
      const customers: string[] = [];
      for (let i = 0; i < 2; i++) {
        const c = await db.customer.create({ data: { id: newId('customer'), merchantId: merchant.id, mode: 'test', email: `p${i}@example.com`, metadata: {} } });
        customers.push(c.id);
      }
      // 2,000 events in the old layout over ~4 months, a few backfilled to 1975 and a few in
      // 2031 (a test clock's future); every third with an idempotency key.
      const t0 = Date.UTC(2026, 6, 1);
      await db.$executeRawUnsafe(
        `INSERT INTO usage_events (id, merchant_id, mode, customer_id, event_name, idempotency_key, "timestamp", metadata, received_at)
         SELECT 'ue_pm' || g, $1, 'test', ($2::text[])[1 + g % 2], 'part.event', CASE WHEN g % 3 = 0 THEN 'key-' || g END,
                CASE WHEN g % 97 = 0 THEN to_timestamp(170000000 + g) WHEN g % 89 = 0 THEN to_timestamp(1930000000 + g)
                     ELSE to_timestamp(${t0 / 1000} + g * 5399.3) END,
                jsonb_build_object('v', g % 11, 'u', 'x' || (g % 7), 'r', CASE WHEN g % 2 = 0 THEN 'eu' ELSE 'us' END),
                to_timestamp(${t0 / 1000} + g)
           FROM generate_series(1, 2000) g`,
        merchant.id,
        customers,
      );
      const meters: Meter[] = [
        await createMeter(sdb, tenant, { name: 'sum', event_name: 'part.event', aggregate_type: 'sum', aggregate_property: 'v', filter: { r: 'eu' } }),
        await createMeter(sdb, tenant, { name: 'unique', event_name: 'part.event', aggregate_type: 'unique', aggregate_property: 'u' }),
        await createMeter(sdb, tenant, { name: 'max', event_name: 'part.event', aggregate_type: 'max', aggregate_property: 'v' }),
        await createMeter(sdb, tenant, { name: 'count', event_name: 'part.event', aggregate_type: 'count' }),
      ];
      const periods: Array<[Date, Date]> = [
        [new Date(0), new Date(Date.UTC(2035, 0, 1))],
        [new Date(t0 + 1_234_567), new Date(t0 + 40 * 86_400_000 + 765_432)],
        [new Date(t0 + 30 * 86_400_000), new Date(t0 + 100 * 86_400_000 - 1)],
        [new Date(Date.UTC(2031, 0, 1)), new Date(Date.UTC(2031, 11, 31, 5, 30))],
      ];
      const before = new Map<string, string | null>();
      for (const meter of meters) {
        for (const customer of customers) {
          for (const [from, to] of periods) before.set(`${meter.id} ${customer} ${from.toISOString()}`, await rawMeterQuantity(sdb, tenant, meter, customer, from, to));
        }
      }
      const [keyed] = await db.$queryRawUnsafe<Array<{ n: bigint }>>(`SELECT count(*) AS n FROM usage_events WHERE idempotency_key IS NOT NULL`);

      await scratch.migrateRest();

      const parts = await usagePartitions(db);
      assert.equal(parts[0]!.name, 'usage_events_legacy', 'the old table is the first partition');
      assert.equal(parts[0]!.from, null);
      assert.ok(
        parts.some((p) => p.isDefault),
        'a default partition',
      );
      assert.ok(parts.filter((p) => /^usage_events_p\d{6}$/.test(p.name)).length >= 4, 'monthly partitions ahead');
      assert.equal(await where(db, 'ue_pm89'), 'usage_events_default', 'a 2031 event (no partition yet) moved to the default partition');
      assert.equal(await where(db, 'ue_pm1'), 'usage_events_legacy', 'the rest stayed in the old table');
      assert.equal(await db.usageEvent.count(), 2000);
      assert.equal(await db.usageEventKey.count(), Number(keyed!.n), 'every key moved to usage_event_keys');
      let nonZero = 0;
      for (const meter of meters) {
        for (const customer of customers) {
          for (const [from, to] of periods) {
            const label = `${meter.aggregateType} ${customer} ${from.toISOString()}..${to.toISOString()}`;
            const expected = before.get(`${meter.id} ${customer} ${from.toISOString()}`);
            assert.equal(await rawMeterQuantity(sdb, tenant, meter, customer, from, to), expected, `raw ${label}`);
            assert.equal((await meterQuantity(sdb, tenant, { meter, customerId: customer, from, to })).quantity, expected, `rollups ${label}`);
            if (expected !== null && expected !== '0') nonZero++;
          }
        }
      }
      assert.ok(nonZero >= 24, `non-vacuous: ${nonZero}`);

      // Replays of keys recorded in the old layout: nothing recorded again, the first event returned.
      const now = new Date();
      const replay = await ingestUsageEvents(
        prismaSql(sdb),
        tenant,
        [3, 6, 9].map((g) => ({ event_name: 'part.event', customer: customers[g % 2], idempotency_key: `key-${g}`, timestamp: new Date(t0).toISOString(), metadata: { v: 100 } })),
        now,
      );
      assert.deepEqual(replay, { ingested: 0, duplicates: 3, errors: [], rollupsGiven: false }, 'a replay inserts nothing, so the rollup rows the API computed are not written');
      const single = await recordUsageEvent(sdb, tenant, { event_name: 'part.event', customer: customers[0], idempotency_key: 'key-30', metadata: { v: 5 } }, now);
      assert.equal(single.created, false);
      assert.equal(single.event.id, 'ue_pm30');
      for (const meter of meters) {
        const [from, to] = periods[0]!;
        assert.equal(
          (await meterQuantity(sdb, tenant, { meter, customerId: customers[0]!, from, to })).quantity,
          before.get(`${meter.id} ${customers[0]} ${from.toISOString()}`),
          'replays changed nothing',
        );
      }
      // A new key is recorded once, in the current month's place.
      const fresh = await recordUsageEvent(sdb, tenant, { event_name: 'part.event', customer: customers[0], idempotency_key: 'new-1', metadata: { v: 5, r: 'eu' } }, now);
      assert.equal(fresh.created, true);
      const again = await recordUsageEvent(sdb, tenant, { event_name: 'part.event', customer: customers[0], idempotency_key: 'new-1', metadata: { v: 6 } }, now);
      assert.equal(again.created, false);
      assert.equal(again.event.id, fresh.event.id);
      assert.equal(
        Number((await meterQuantity(sdb, tenant, { meter: meters[3]!, customerId: customers[0]!, from: periods[0]![0], to: periods[0]![1] })).quantity),
        Number(before.get(`${meters[3]!.id} ${customers[0]} ${periods[0]![0].toISOString()}`)) + 1,
      );
    } finally {
      await scratch.drop();
    }
  });

  describe('maintenance and retention', () => {
    const url = scratchDatabaseUrl('part_ret');
    let db: Db;
    before(async () => {
      await ensureDatabase(url);
      await migrate(url);
      db = createDb(url, { poolSize: 3 });
    });
    after(async () => {
      await db.$disconnect();
      await dropDatabase(url);
    });

    it('creates months ahead and moves a stray event out of the default partition', async () => {
      const { merchant } = await createMerchant(db, { name: 'Ahead merchant' });
      const c = await db.customer.create({ data: { id: newId('customer'), merchantId: merchant.id, mode: 'test', email: 'a@example.com', metadata: {} } });
      const far = new Date(Date.UTC(new Date().getUTCFullYear() + 4, 2, 15, 12));
      await db.$executeRawUnsafe(
        `INSERT INTO usage_events (id, merchant_id, mode, customer_id, event_name, "timestamp", metadata) VALUES ('ue_far', $1, 'test', $2, 'far.event', $3::timestamptz, '{}')`,
        merchant.id,
        c.id,
        far.toISOString(),
      );
      assert.equal(await where(db, 'ue_far'), 'usage_events_default');
      const first = await ensureUsageEventPartitions(db, far, 3);
      assert.deepEqual(
        first.created,
        [0, 1, 2, 3].map((k) => partitionName(addMonths(far, k))),
      );
      assert.equal(first.moved, 1);
      assert.equal(await where(db, 'ue_far'), partitionName(far));
      assert.deepEqual(await ensureUsageEventPartitions(db, far, 3), { created: [], moved: 0 }, 'a second run changes nothing');
      const current = await ensureUsageEventPartitions(db, new Date(), 3);
      assert.deepEqual(current.created, [], 'the migration made the current month and the next ones');
    });

    it('retention drops raw events before the horizon; rollups keep whole-hour quantities exact', async () => {
      const { merchant } = await createMerchant(db, { name: 'Retention merchant' });
      const tenant = { merchantId: merchant.id, mode: 'test' as const };
      const sdb = scopedDb(db, tenant);
      const c = await db.customer.create({ data: { id: newId('customer'), merchantId: merchant.id, mode: 'test', email: 'r@example.com', metadata: {} } });
      const sum = await createMeter(sdb, tenant, { name: 'sum', event_name: 'ret.event', aggregate_type: 'sum', aggregate_property: 'v' });
      const uniq = await createMeter(sdb, tenant, { name: 'unique', event_name: 'ret.event', aggregate_type: 'unique', aggregate_property: 'u' });
      const now = new Date();
      const month = monthStart(now);
      const old = new Date(addMonths(month, -3).getTime() + 5 * 86_400_000); // before the horizon (2 months)
      const recent = new Date(addMonths(month, -1).getTime() + 5 * 86_400_000); // after it
      const events = (at: Date, tag: string) =>
        Array.from({ length: 40 }, (_, i) => ({
          event_name: 'ret.event',
          customer: c.id,
          idempotency_key: `${tag}-${i}`,
          timestamp: new Date(at.getTime() + i * 600_000).toISOString(),
          metadata: { v: i, u: `u${i % 6}` },
        }));
      assert.equal((await ingestUsageEvents(prismaSql(sdb), tenant, [...events(old, 'old'), ...events(recent, 'recent')], now)).ingested, 80);
      const oldHours: [Date, Date] = [new Date(old.getTime() - HOUR), new Date(old.getTime() + 10 * HOUR - 1)];
      const oldPartial: [Date, Date] = [new Date(old.getTime() + 30 * 60_000 + 1), new Date(old.getTime() + 5 * HOUR)];
      const recentPartial: [Date, Date] = [new Date(recent.getTime() + 30 * 60_000 + 1), new Date(recent.getTime() + 5 * HOUR)];
      const q = async (meter: Meter, [from, to]: [Date, Date]) => (await meterQuantity(sdb, tenant, { meter, customerId: c.id, from, to })).quantity;
      const before = { sum: await q(sum, oldHours), uniq: await q(uniq, oldHours), recent: await q(sum, recentPartial) };
      assert.equal(before.sum, String((39 * 40) / 2));
      assert.equal(before.uniq, '6');

      const r = await applyUsageEventRetention(db, now, 2);
      assert.equal(r.rawFrom.getTime(), addMonths(month, -2).getTime());
      assert.equal(r.deletedRows, 40, 'the old events, from the partition that straddles the horizon');
      assert.equal(r.deletedKeys, 40);
      assert.equal(await db.usageEvent.count({ where: { merchantId: merchant.id } }), 40);
      assert.equal(await rawMeterQuantity(sdb, tenant, sum, c.id, oldHours[0], oldHours[1]), '0', 'the raw rows are gone');
      assert.equal(await q(sum, oldHours), before.sum, 'whole hours come from the rollups');
      assert.equal(await q(uniq, oldHours), before.uniq);
      assert.equal(await q(sum, recentPartial), before.recent, 'after the horizon nothing changed');
      await assert.rejects(
        q(sum, oldPartial),
        (e: { code?: string; param?: string }) => e.code === 'validation_failed' && e.param === 'period_start',
        'a partial hour before the horizon is refused',
      );
      const replay = await ingestUsageEvents(prismaSql(sdb), tenant, events(old, 'old').slice(0, 2), now);
      assert.equal(replay.ingested, 0);
      assert.deepEqual(
        replay.errors.map((e) => e.index),
        [0, 1],
        'events before the horizon are refused (their keys are gone)',
      );
      assert.match(replay.errors[0]!.message, /retention/);
      assert.equal(await q(sum, oldHours), before.sum, 'and counted nothing');

      // Later, the horizon passes whole partitions: they are dropped, not emptied row by row.
      const later = await applyUsageEventRetention(db, addMonths(month, 4), 2);
      assert.ok(later.dropped.includes('usage_events_legacy') || (await usagePartitions(db)).every((p) => p.name !== 'usage_events_legacy'));
      assert.ok(later.dropped.includes(partitionName(month)), `dropped ${later.dropped.join(', ')}`);
      assert.equal(await db.usageEvent.count({ where: { merchantId: merchant.id } }), 0);
      assert.equal(await q(sum, oldHours), before.sum, 'rollups still answer');
    });
  });
});
