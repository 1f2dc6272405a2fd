// Profile of the ingest statement (issue 32): EXPLAIN (ANALYZE, BUFFERS) of one 1,000-event
// batch through the statement POST /v1/events/batch runs, for an event name two meters read
// (a filtered `sum` and a `unique`) and for one no meter reads, on a database of its own.
// Run: `node dist/bench/ingest-profile.js` after a build. Prints the plans; measures nothing else.
import { Client } from 'pg';
import { createDb } from '../src/db/client';
import { createMerchant } from '../src/domain/merchants/create-merchant';
import { newId } from '../src/ids';
import { INSERT_SQL } from '../src/domain/usage-events/ingest-usage-events';
import { newUsageEventIdParts, EVENT_ID_RANDOM_CHARS } from '../src/domain/usage-events/event-ids';
import { benchDatabase } from './support';

const PERIOD_START = Date.UTC(2026, 0, 1);

function payload(n: number, offset: number, keyPrefix: string): { base64: string; prefix: string } {
  const { prefix, random } = newUsageEventIdParts(n);
  const parts: string[] = [];
  for (let r = 0; r < n; r++) {
    const i = offset + r;
    const meta = JSON.stringify({ units: (i % 10) + 1, region: 'eu', endpoint: `/v1/items/${i % 50}` });
    parts.push(
      `[1,1,"${keyPrefix}-${String(i).padStart(9, '0')}",${PERIOD_START + i * 2678},"${random.slice(r * EVENT_ID_RANDOM_CHARS, (r + 1) * EVENT_ID_RANDOM_CHARS)}",${meta}]`,
    );
  }
  return { base64: Buffer.from(`[${parts.join(',')}]`).toString('base64'), prefix };
}

export async function main(): Promise<void> {
  const database = await benchDatabase();
  const db = createDb(database.url, { poolSize: 1 });
  const c = new Client({ connectionString: database.url });
  await c.connect();
  try {
    const { merchant } = await createMerchant(db, { name: 'Profile merchant' });
    const customer = await db.customer.create({ data: { id: newId('customer'), merchantId: merchant.id, mode: 'test', email: 'p@bench.example', metadata: {} } });
    const meter = (aggregateType: 'sum' | 'unique', aggregateProperty: string, filter: object) =>
      db.meter.create({
        data: {
          id: newId('meter'),
          merchantId: merchant.id,
          mode: 'test',
          name: aggregateType,
          eventName: 'api.request',
          aggregateType,
          aggregateProperty,
          filter,
          unitMultiplier: 1,
        },
      });
    await meter('sum', 'units', { region: 'eu' });
    await meter('unique', 'endpoint', {});
    for (const name of ['api.request', 'api.unmetered']) {
      // warm up: 20 batches, then explain the 21st
      for (let b = 0; b < 21; b++) {
        const p = payload(1000, b * 1000, name);
        const sql = b === 20 ? `EXPLAIN (ANALYZE, BUFFERS, TIMING) ${INSERT_SQL}` : INSERT_SQL;
        const t = process.hrtime.bigint();
        const r = await c.query(sql, [merchant.id, 'test', p.base64, [customer.id], [name], p.prefix]);
        const ms = Number(process.hrtime.bigint() - t) / 1e6;
        if (b >= 15) console.log(`${name} batch ${b}: ${ms.toFixed(1)} ms`);
        if (b === 20) console.log(r.rows.map((x: Record<string, string>) => x['QUERY PLAN']).join('\n'));
      }
    }
  } finally {
    await c.end();
    await db.$disconnect();
    await database.drop();
  }
}

if (require.main === module) {
  main().then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
