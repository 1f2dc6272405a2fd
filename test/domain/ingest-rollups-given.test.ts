// The ingest statement writes the rollup rows the API computed (rollupContributions) only when
// they are what it would have computed itself (src/domain/usage-events/ingest-usage-events.ts,
// docs/metering.md "The ingestion path"). Each meter here has a twin with the same definition
// created after the events: a new meter's rollups are built from the raw events in SQL
// (rollupBuildSql), so the twin's rows are the SQL answer the given rows must equal, row by row.
import assert from 'node:assert/strict';
import { envAndMerchants, type TestEnv } from '../support/env';
import { catalogMerchant, createCustomer, createMeter, unique, type CatalogMerchant } from '../api/catalog/fixtures';
import { rawTransaction } from '../../src/db/client';
import { INSERT_SQL, ingestUsageEvents, type IngestResult } from '../../src/domain/usage-events/ingest-usage-events';

const BASE = Date.UTC(2026, 3, 1, 10, 59, 58);

describe('ingestion: rollup rows given by the API', () => {
  let env: TestEnv, m: CatalogMerchant;
  let customers: string[];
  before(async () => {
    [env, m] = await envAndMerchants(catalogMerchant);
    customers = [(await createCustomer(m)).id, (await createCustomer(m)).id];
  });

  const tenant = () => ({ merchantId: m.id, mode: 'test' as const });
  const ingest = (events: unknown[]): Promise<IngestResult> => rawTransaction(env.db, (sql) => ingestUsageEvents(sql, tenant(), events, new Date()));

  const specs = [
    { aggregate_type: 'count', aggregate_property: null, filter: null },
    { aggregate_type: 'sum', aggregate_property: 'units', filter: { region: 'eu' } },
    { aggregate_type: 'min', aggregate_property: 'units', filter: null },
    { aggregate_type: 'max', aggregate_property: 'units', filter: null },
    { aggregate_type: 'avg', aggregate_property: 'units', filter: { region: 'us' } },
    { aggregate_type: 'unique', aggregate_property: 'units', filter: null },
  ];

  /** Every hourly row of a meter (slots summed; numerics without trailing zeros, NULLs left out) and its distinct values, in a stable order. */
  async function rollupsOf(meterId: string): Promise<{ hourly: string[]; values: string[] }> {
    const hourly = await env.db.$queryRawUnsafe<Array<{ row: string }>>(
      `SELECT concat_ws('|', customer_id, to_char(hour AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24'), sum(n), sum(nv), trim_scale(sum(sum)), trim_scale(min(min)), trim_scale(max(max))) AS row
         FROM meter_usage_hourly WHERE meter_id = $1 GROUP BY customer_id, hour ORDER BY customer_id, hour`,
      meterId,
    );
    const values = await env.db.$queryRawUnsafe<Array<{ row: string }>>(
      `SELECT concat_ws('|', customer_id, to_char(hour AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24'), value) AS row FROM meter_usage_values WHERE meter_id = $1 ORDER BY 1`,
      meterId,
    );
    return { hourly: hourly.map((r) => r.row), values: values.map((r) => r.row) };
  }

  /** Events over three hours, two customers, values of every kind a live meter accepts, some keys repeated inside the batch. */
  function batch(eventName: string, keyPrefix: string, n: number): unknown[] {
    const values: unknown[] = [1, 2.5, '3', '0.1', 0.2, -4, '007', null, 1e21, '12.50', 123456789.123, undefined, 9007199254740993, 1e-7];
    return Array.from({ length: n }, (_, i) => {
      const metadata: Record<string, unknown> = { region: i % 3 === 0 ? 'us' : 'eu' };
      const v = values[i % values.length];
      if (v !== undefined) metadata.units = v;
      return {
        event_name: eventName,
        customer: customers[i % 2],
        timestamp: new Date(BASE + i * 97_000).toISOString(),
        metadata,
        ...(i % 5 === 4 ? {} : { idempotency_key: `${keyPrefix}-${i % 7 === 6 ? i - 1 : i}` }),
      };
    });
  }

  async function twinsAgree(eventName: string, meters: Array<{ id: string }>): Promise<number> {
    let rows = 0;
    for (const [i, spec] of specs.entries()) {
      const twin = await createMeter(m, { name: 'twin', event_name: eventName, ...spec });
      const given = await rollupsOf(meters[i]!.id);
      const built = await rollupsOf(twin.id);
      assert.deepEqual(given, built, `${spec.aggregate_type}: rollup rows written at ingestion = rows built from the raw events`);
      rows += given.hourly.length + given.values.length;
    }
    return rows;
  }

  it('writes the given rows for a batch of new keys, and they equal the rows built from the raw events for every aggregate', async () => {
    const eventName = unique('given');
    const meters = [];
    for (const spec of specs) meters.push(await createMeter(m, { name: 'live', event_name: eventName, ...spec }));
    const events = batch(eventName, unique('k'), 120);
    const r = await ingest(events);
    assert.deepEqual(r.errors, []);
    assert.equal(r.rollupsGiven, true, 'no key was seen before and the meters did not change: the API’s rows are written');
    assert.ok(r.duplicates > 0, 'the batch repeats some keys inside itself');
    assert.equal(r.ingested + r.duplicates, events.length);
    const rows = await twinsAgree(eventName, meters);
    assert.ok(rows > 20, `compared ${rows} rollup rows`);
  });

  it('computes the rows in SQL when a key was seen before, and they still equal the rows built from the raw events', async () => {
    const eventName = unique('seen');
    const meters = [];
    for (const spec of specs) meters.push(await createMeter(m, { name: 'live', event_name: eventName, ...spec }));
    const prefix = unique('k');
    const first = batch(eventName, prefix, 60);
    assert.equal((await ingest(first.slice(0, 30))).rollupsGiven, true);
    const again = await ingest(first);
    assert.equal(again.rollupsGiven, false, 'half the keys were recorded by the first batch');
    assert.ok(again.ingested > 0 && again.duplicates > 0);
    const replay = await ingest(first);
    assert.equal(replay.rollupsGiven, false);
    assert.equal(replay.ingested, first.filter((e) => !('idempotency_key' in (e as object))).length, 'a replay records only the events without a key');
    await twinsAgree(eventName, meters);
  });

  it('does not write the given rows when the live meters differ from the ones they were computed for', async () => {
    const eventName = unique('race');
    const meter = await createMeter(m, { name: 'live', event_name: eventName, aggregate_type: 'count' });
    const ts = Date.UTC(2026, 3, 2, 8, 30);
    // As if the lookup had run before the meter was created: no meter ids, no rollup rows.
    const rows = JSON.stringify([[1, 1, unique('k'), ts, 'AAAAAAAAAAAAAA', {}]]);
    const [r] = await rawTransaction(env.db, (sql) =>
      sql.query<{ n: number; given: boolean }>(INSERT_SQL, [m.id, 'test', rows, [customers[0]], [eventName], `ue_${unique('t')}`, 1, [], JSON.stringify({ h: [], u: [] })]),
    );
    assert.deepEqual(r, { n: 1, given: false });
    assert.deepEqual((await rollupsOf(meter.id)).hourly, [`${customers[0]}|2026-04-02 08|1|0`], 'the statement counted the event for the meter it sees');
  });
});
