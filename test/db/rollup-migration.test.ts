// The meter-rollups migration on a populated database: a database migrated to the migration
// before it gets meters (live, filtered, unique, archived) and raw usage events (several
// customers, backfills, events received after a meter's archiving, non-numeric values), then the
// rollups migration runs, and every meter's quantity through the rollup path equals the raw scan
// for whole and partial-hour periods.
import assert from 'node:assert/strict';
import { databaseBeforeMigration } from '../support/scratch-database';
import { createMerchant } from '../../src/domain/merchants/create-merchant';
import { meterQuantity, rawMeterQuantity } from '../../src/domain/meters/meter-quantity';
import { scopedDb } from '../../src/db/tenancy';
import { newId } from '../../src/ids';
import { createMeter } from '../../src/domain/meters/manage-meters';

const MIGRATION = '20261127320000_meter_usage_rollups';

describe('migration meter_usage_rollups on a populated database', function () {
  this.timeout(300_000);
  it('builds rollups that give the raw answer for every meter', async () => {
    const scratch = await databaseBeforeMigration('rollup_mig', MIGRATION);
    const { db } = scratch;
    try {
      const { merchant } = await createMerchant(db, { name: 'Migration merchant' });
      const tenant = { merchantId: merchant.id, mode: 'test' as const };
      const customers: string[] = [];
      for (let i = 0; i < 3; i++) {
        const c = await db.customer.create({ data: { id: newId('customer'), merchantId: merchant.id, mode: 'test', email: `m${i}@example.com`, metadata: {} } });
        customers.push(c.id);
      }
      const mk = (aggregateType: 'count' | 'sum' | 'max' | 'min' | 'avg' | 'unique', filter: Record<string, string> = {}, archivedAt: Date | null = null) =>
        db.meter.create({
          data: {
            id: newId('meter'),
            merchantId: merchant.id,
            mode: 'test',
            name: aggregateType,
            eventName: 'mig.event',
            aggregateType,
            aggregateProperty: aggregateType === 'count' ? null : 'v',
            filter,
            unitMultiplier: 3,
            archivedAt,
          },
        });
      const t0 = Date.UTC(2026, 5, 1);
      const meters = [
        await mk('count'),
        await mk('sum', { r: 'eu' }),
        await mk('max'),
        await mk('min'),
        await mk('avg'),
        await mk('unique'),
        await mk('sum', {}, new Date(t0 + 500 * 60_000)), // archived: events received after it do not count
      ];
      // 3,000 events: timestamps over ~50 hours (some backfilled far back), received_at over
      // 1,000 minutes, values numeric, decimal strings, non-numeric and missing.
      await db.$executeRawUnsafe(
        `INSERT INTO usage_events (id, merchant_id, mode, customer_id, event_name, idempotency_key, "timestamp", metadata, received_at)
         SELECT 'ue_mig' || g, $1, 'test', ($2::text[])[1 + g % 3], CASE WHEN g % 17 = 0 THEN 'other.event' ELSE 'mig.event' END, NULL,
                CASE WHEN g % 50 = 0 THEN to_timestamp(${t0 / 1000} - 86400 * 40 + g) ELSE to_timestamp(${t0 / 1000} + g * 61.7) END,
                jsonb_build_object('r', CASE WHEN g % 2 = 0 THEN 'eu' ELSE 'us' END)
                  || CASE g % 7 WHEN 0 THEN '{}'::jsonb WHEN 1 THEN jsonb_build_object('v', 'abc') WHEN 2 THEN jsonb_build_object('v', (g % 13)::text || '.25')
                                ELSE jsonb_build_object('v', g % 11) END,
                to_timestamp(${t0 / 1000} + g * 20)
           FROM generate_series(1, 3000) g`,
        merchant.id,
        customers,
      );
      await scratch.migrateRest();
      const rollupRows = await db.meterUsageHourly.count();
      assert.ok(rollupRows > 100, `rollups built: ${rollupRows} hourly rows`);
      assert.ok((await db.meterUsageValue.count()) > 0, 'distinct values built for the unique meter');
      const sdb = scopedDb(db, tenant);
      const periods: Array<[Date, Date]> = [
        [new Date(t0 - 50 * 86_400_000), new Date(t0 + 60 * 3_600_000)],
        [new Date(t0 + 1_234_567), new Date(t0 + 30 * 3_600_000 + 765_432)],
        [new Date(t0 + 3_600_000), new Date(t0 + 2 * 3_600_000 - 1)],
      ];
      let nonZero = 0;
      for (const meter of meters) {
        for (const customer of customers) {
          for (const [from, to] of periods) {
            const raw = await rawMeterQuantity(sdb, tenant, meter, customer, from, to);
            const viaRollups = await meterQuantity(sdb, tenant, { meter, customerId: customer, from, to });
            assert.equal(viaRollups.quantity, raw, `${meter.aggregateType} ${meter.archivedAt ? 'archived ' : ''}${customer} ${from.toISOString()}..${to.toISOString()}`);
            if (raw !== null && raw !== '0') nonZero++;
          }
        }
      }
      assert.ok(nonZero > 40, `non-vacuous: ${nonZero}`);
      // The archived meter counts fewer events than the same meter created live now (which
      // builds its rollups from the stored events).
      const archived = meters[6]!;
      const live = await createMeter(sdb, tenant, { name: 'live', event_name: 'mig.event', aggregate_type: 'sum', aggregate_property: 'v', unit_multiplier: 3 });
      const [from, to] = periods[0]!;
      const liveQuantity = (await meterQuantity(sdb, tenant, { meter: live, customerId: customers[0]!, from, to })).quantity;
      assert.equal(liveQuantity, await rawMeterQuantity(sdb, tenant, live, customers[0]!, from, to));
      assert.notEqual((await meterQuantity(sdb, tenant, { meter: archived, customerId: customers[0]!, from, to })).quantity, liveQuantity);
    } finally {
      await scratch.drop();
    }
  });
});
