// A burst of concurrent charges larger than the API's connection pool must not starve: no
// request holds a pooled connection while the acquirer works (the charge runs between two short
// transactions), so the test-mode acquirer shares the same small pool.
import assert from 'node:assert/strict';
import { envAndMerchants, type TestEnv } from '../../support/env';
import { call, newMerchant, type TestMerchant } from '../../support/api';
import { createDb } from '../../../src/db/client';
import { createTemporalProvider } from '../../../src/temporal/client';
import { listen } from '../../../boot/runtime/http';
import { createApp } from '../../../api/app';
import { createWorkflowClients } from '../../../src/temporal/workflow-clients';
import { createModeGateways } from '../../../src/gateways';

describe('payments under a burst larger than the connection pool', function () {
  this.timeout(120_000);
  let env: TestEnv, m: TestMerchant;
  let baseUrl: string;
  let close: () => Promise<void>;
  before(async () => {
    [env, m] = await envAndMerchants(newMerchant);
    // An API instance with a tiny pool (3 connections).
    const db = createDb(env.databaseUrl, { poolSize: 3 });
    const temporal = createTemporalProvider({ address: env.temporalAddress, namespace: env.config.temporalNamespace, taskQueue: env.config.taskQueue });
    // These payments share one merchant's invoice-number counter, so their transactions run one
    // after another: a request may wait for a connection longer than the default 5 s on a loaded
    // machine. Starvation (no progress at all) still fails; slowness does not.
    const app = createApp({
      db,
      config: { ...env.config, transactionMaxWaitMs: 60_000 },
      temporal,
      workflows: createWorkflowClients(temporal),
      gateways: createModeGateways({ db }),
      log: () => undefined,
    });
    const h = await listen(app, 0, '127.0.0.1');
    baseUrl = `http://127.0.0.1:${h.port}`;
    close = async () => {
      await h.close(1000);
      await app.shutdown();
      await temporal.close();
      await db.$disconnect();
    };
  });
  after(() => close());

  it('12 concurrent card payments all complete', async () => {
    const customer = (await m.call('POST', '/v1/customers', { body: { email: 'burst@example.is' } })).body.id as string;
    const pm = await m.call('POST', `/v1/test_helpers/customers/${customer}/payment_methods`, {
      body: { card_number: '4242424242424242', exp_month: 12, exp_year: new Date().getUTCFullYear() + 2, cvc: '123' },
    });
    assert.equal(pm.status, 201, pm.text);
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        call(env, 'POST', '/v1/payments', {
          baseUrl,
          key: m.secretKey,
          merchant: m.id,
          body: { amount: 1000 + i, currency: 'ISK', customer, payment_method: pm.body.id, description: `burst ${i}` },
        }),
      ),
    );
    for (const r of results) {
      assert.ok(r.status === 201 || r.status === 200, r.text);
      assert.equal(r.body.status, 'succeeded', r.text);
    }
  });
});
