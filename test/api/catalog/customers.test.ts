import assert from 'node:assert/strict';
import { envAndMerchants, type TestEnv } from '../../support/env';
import { expectError } from '../../support/api';
import { catalogMerchant, createCustomer, unique, type CatalogMerchant } from './fixtures';

describe('catalog: customers', () => {
  let env: TestEnv, m: CatalogMerchant, other: CatalogMerchant;
  before(async () => ([env, m, other] = await envAndMerchants(catalogMerchant, catalogMerchant)));

  it('creates a customer with every field; the address is sent flat and returned nested', async () => {
    const res = await m.call('POST', '/v1/customers', {
      body: {
        email: ' jon@example.is ',
        name: 'Jón Jónsson',
        phone: '+354 555 1234',
        kennitala: '010130-2989',
        external_id: unique('ext'),
        vat_number: 'IS12345',
        currency: 'eur',
        metadata: { plan: 'gold' },
        billing_address_line1: 'Laugavegur 1',
        billing_address_line2: null,
        billing_city: 'Reykjavík',
        billing_postal_code: '101',
        billing_country: 'is',
      },
    });
    assert.equal(res.status, 201, res.text);
    const c = res.body;
    assert.match(c.id, /^cus_/);
    assert.equal(c.email, 'jon@example.is');
    assert.equal(c.kennitala, '0101302989');
    assert.equal(c.currency, 'EUR');
    assert.deepEqual(c.metadata, { plan: 'gold' });
    assert.deepEqual(c.billing_address, { line1: 'Laugavegur 1', line2: null, city: 'Reykjavík', postal_code: '101', country: 'IS' });
    assert.equal(c.billing_address_line1, undefined);
    assert.match(c.created_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    const got = await m.call('GET', `/v1/customers/${c.id}`);
    assert.deepEqual(got.body, c);
  });

  it('a customer with only an e-mail has null fields, {} metadata and no address', async () => {
    const c = await createCustomer(m);
    assert.deepEqual([c.name, c.phone, c.kennitala, c.external_id, c.vat_number, c.currency, c.billing_address], [null, null, null, null, null, null, null]);
    assert.deepEqual(c.metadata, {});
  });

  describe('validation on create', () => {
    const bad: Array<[string, Record<string, unknown>, string]> = [
      ['missing email', {}, 'email'],
      ['email of the wrong type', { email: 42 }, 'email'],
      ['email without @', { email: 'not-an-email' }, 'email'],
      ['email with two @', { email: 'a@b@c.is' }, 'email'],
      ['email with a space', { email: 'a b@c.is' }, 'email'],
      ['email single-label domain', { email: 'a@localhost' }, 'email'],
      ['email too long', { email: `${'a'.repeat(64)}@${'b'.repeat(200)}.is` }, 'email'],
      ['kennitala too short', { kennitala: '01013029' }, 'kennitala'],
      ['kennitala with letters', { kennitala: '010130-29a9' }, 'kennitala'],
      ['kennitala impossible date', { kennitala: '310230-2989' }, 'kennitala'],
      ['kennitala bad day', { kennitala: '320130-2989' }, 'kennitala'],
      ['kennitala bad century digit', { kennitala: '0101302985' }, 'kennitala'],
      ['kennitala of the wrong type', { kennitala: 101302989 }, 'kennitala'],
      ['country not ISO 3166-1', { billing_country: 'XX' }, 'billing_country'],
      ['country as a name', { billing_country: 'Iceland' }, 'billing_country'],
      ['country reserved code', { billing_country: 'EU' }, 'billing_country'],
      ['unsupported currency', { currency: 'JPY' }, 'currency'],
      ['metadata not an object', { metadata: 'x' }, 'metadata'],
      ['metadata array', { metadata: ['a'] }, 'metadata'],
      ['metadata number value', { metadata: { a: 1 } }, 'metadata'],
      ['metadata nested object', { metadata: { a: { b: 'c' } } }, 'metadata'],
      ['metadata key too long', { metadata: { ['k'.repeat(41)]: 'v' } }, 'metadata'],
      ['metadata value too long', { metadata: { k: 'v'.repeat(501) } }, 'metadata'],
      ['metadata too many keys', { metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v'])) }, 'metadata'],
      ['metadata key with brackets', { metadata: { 'a[b]': 'v' } }, 'metadata'],
      ['metadata NUL', { metadata: { a: 'x\u0000y' } }, 'metadata'],
      ['name too long', { name: 'n'.repeat(257) }, 'name'],
      ['name of the wrong type', { name: ['x'] }, 'name'],
      ['name with NUL', { name: 'a\u0000b' }, 'name'],
      ['phone too long', { phone: '1'.repeat(41) }, 'phone'],
      ['external_id too long', { external_id: 'x'.repeat(256) }, 'external_id'],
      ['external_id of the wrong type', { external_id: 5 }, 'external_id'],
      ['vat_number too long', { vat_number: 'x'.repeat(41) }, 'vat_number'],
      ['address line too long', { billing_address_line1: 'x'.repeat(201) }, 'billing_address_line1'],
      ['city of the wrong type', { billing_city: true }, 'billing_city'],
      ['postal code too long', { billing_postal_code: 'x'.repeat(21) }, 'billing_postal_code'],
    ];
    for (const [why, body, param] of bad) {
      it(`${why} → 400 validation_failed (${param})`, async () => {
        const withEmail = 'email' in body || why === 'missing email' ? body : { email: 'ok@example.is', ...body };
        expectError(await m.call('POST', '/v1/customers', { body: withEmail }), 400, 'validation_failed', param);
      });
    }
  });

  describe('kennitala forms', () => {
    const good: Array<[string, string]> = [
      ['0101302989', '0101302989'],
      ['010130-2989', '0101302989'],
      ['010130 2989', '0101302989'],
      [' 010130-2989 ', '0101302989'],
      // company id (day + 40)
      ['5902697199', '5902697199'],
      // a wrong check digit is accepted: new ids are issued without one (docs/catalog.md)
      ['0101302979', '0101302979'],
    ];
    for (const [input, stored] of good) {
      it(`${JSON.stringify(input)} is stored as ${stored}`, async () => {
        const c = await createCustomer(m, { kennitala: input });
        assert.equal(c.kennitala, stored);
      });
    }
  });

  it('external_id is unique per merchant and mode: a duplicate gets 409 resource_conflict', async () => {
    const ext = unique('ext');
    await createCustomer(m, { external_id: ext });
    expectError(await m.call('POST', '/v1/customers', { body: { email: 'a@example.is', external_id: ext } }), 409, 'resource_conflict', 'external_id');
    // another merchant and the other mode may use the same value
    assert.equal((await other.call('POST', '/v1/customers', { body: { email: 'a@example.is', external_id: ext } })).status, 201);
    assert.equal((await m.live('POST', '/v1/customers', { body: { email: 'a@example.is', external_id: ext } })).status, 201);
    // and PATCH cannot take it either
    const c = await createCustomer(m);
    expectError(await m.call('PATCH', `/v1/customers/${c.id}`, { body: { external_id: ext } }), 409, 'resource_conflict', 'external_id');
    // setting a customer's own value again is fine
    const same = await createCustomer(m, { external_id: unique('own') });
    assert.equal((await m.call('PATCH', `/v1/customers/${same.id}`, { body: { external_id: same.external_id } })).status, 200);
  });

  it('concurrent creates with one external_id: exactly one wins, the rest get 409', async () => {
    const ext = unique('race');
    const results = await Promise.all(Array.from({ length: 6 }, () => m.call('POST', '/v1/customers', { body: { email: 'r@example.is', external_id: ext } })));
    assert.equal(results.filter((r) => r.status === 201).length, 1);
    for (const r of results.filter((x) => x.status !== 201)) expectError(r, 409, 'resource_conflict', 'external_id');
  });

  it('PATCH changes only supplied fields, null clears, metadata replaces the whole object', async () => {
    const c = await createCustomer(m, { name: 'A', phone: '123', metadata: { a: '1', b: '2' }, billing_city: 'Akureyri', billing_country: 'IS' });
    const res = await m.call('PATCH', `/v1/customers/${c.id}`, { body: { name: 'B', metadata: { c: '3' }, phone: null } });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.name, 'B');
    assert.equal(res.body.phone, null);
    assert.equal(res.body.email, c.email);
    assert.deepEqual(res.body.metadata, { c: '3' });
    assert.deepEqual(res.body.billing_address, { line1: null, line2: null, city: 'Akureyri', postal_code: null, country: 'IS' });
    assert.equal(res.body.created_at, c.created_at);
    const cleared = await m.call('PATCH', `/v1/customers/${c.id}`, { body: { metadata: null, billing_city: null, billing_country: null } });
    assert.deepEqual(cleared.body.metadata, {});
    assert.equal(cleared.body.billing_address, null);
    const noop = await m.call('PATCH', `/v1/customers/${c.id}`, { body: { unknown_field: 'ignored' } });
    assert.equal(noop.status, 200);
    assert.deepEqual(noop.body, cleared.body);
  });

  it('PATCH validates like create and cannot clear the e-mail', async () => {
    const c = await createCustomer(m);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ email: null }, 'email'],
      [{ email: '' }, 'email'],
      [{ email: 'bad' }, 'email'],
      [{ kennitala: '123' }, 'kennitala'],
      [{ billing_country: 'ZZ' }, 'billing_country'],
      [{ metadata: { a: 1 } }, 'metadata'],
      [{ name: 7 }, 'name'],
    ];
    for (const [body, param] of cases) expectError(await m.call('PATCH', `/v1/customers/${c.id}`, { body }), 400, 'validation_failed', param);
  });

  it('ids of another merchant or the other mode behave like unknown ids', async () => {
    const c = await createCustomer(m);
    const foreign = await createCustomer(other);
    const liveOne = (await m.live('POST', '/v1/customers', { body: { email: 'l@example.is' } })).body;
    for (const id of [foreign.id, liveOne.id, 'cus_doesnotexist', 'x'.repeat(300)]) {
      expectError(await m.call('GET', `/v1/customers/${id}`), 404, 'resource_missing');
      expectError(await m.call('PATCH', `/v1/customers/${id}`, { body: { name: 'x' } }), 404, 'resource_missing');
      if (id.length <= 255) expectError(await m.call('GET', `/v1/customers?starting_after=${id}`), 404, 'resource_missing', 'starting_after');
    }
    assert.equal((await m.live('GET', `/v1/customers/${c.id}`)).status, 404);
  });

  it('lists newest first with paging; the other mode and other merchants are not listed', async () => {
    const mine = await catalogMerchant(env);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await createCustomer(mine)).id);
    await mine.live('POST', '/v1/customers', { body: { email: 'live@example.is' } });
    const page1 = await mine.call('GET', '/v1/customers?limit=3');
    assert.equal(page1.status, 200);
    assert.equal(page1.body.has_more, true);
    const page2 = await mine.call('GET', `/v1/customers?limit=3&starting_after=${page1.body.data[2].id}`);
    assert.equal(page2.body.has_more, false);
    const listed = [...page1.body.data, ...page2.body.data].map((c: any) => c.id);
    assert.deepEqual(listed, [...ids].reverse());
    const item = page1.body.data[0];
    for (const f of ['id', 'email', 'name', 'kennitala', 'billing_address', 'created_at']) assert.ok(f in item, f);
  });

  it('idempotent create: the same Idempotency-Key returns the first customer', async () => {
    const key = unique('idem');
    const a = await m.call('POST', '/v1/customers', { body: { email: 'i@example.is' }, idempotencyKey: key });
    const b = await m.call('POST', '/v1/customers', { body: { email: 'other@example.is' }, idempotencyKey: key });
    assert.equal(a.status, 201);
    assert.deepEqual(b.body, a.body);
  });

  it('records customer.created and customer.updated with the customer as the API returns it; a no-op PATCH records nothing', async () => {
    const events = async (id: string, type: string) => ((await m.call('GET', `/v1/webhook_events?type=${type}&limit=100`)).body.data as any[]).filter((e) => e.data.id === id);
    const created = await m.call('POST', '/v1/customers', { body: { email: 'events@example.is', name: 'Before', metadata: { a: '1' } } });
    assert.equal(created.status, 201, created.text);
    const [c] = await events(created.body.id, 'customer.created');
    assert.ok(c, 'customer.created recorded');
    assert.deepEqual(c.data, created.body);

    const changed = await m.call('PATCH', `/v1/customers/${created.body.id}`, { body: { name: 'After' } });
    assert.equal(changed.status, 200, changed.text);
    let updated = await events(created.body.id, 'customer.updated');
    assert.equal(updated.length, 1);
    assert.deepEqual(updated[0].data, changed.body);

    // Same values again, and an empty body: no event.
    assert.equal((await m.call('PATCH', `/v1/customers/${created.body.id}`, { body: { name: 'After', metadata: { a: '1' } } })).status, 200);
    assert.equal((await m.call('PATCH', `/v1/customers/${created.body.id}`, { body: {} })).status, 200);
    updated = await events(created.body.id, 'customer.updated');
    assert.equal(updated.length, 1);

    // A refused create records no event (same transaction).
    const ext = unique('ext');
    assert.equal((await m.call('POST', '/v1/customers', { body: { email: 'a@example.is', external_id: ext } })).status, 201);
    const before = await env.db.event.count({ where: { merchantId: m.id, type: 'customer.created' } });
    expectError(await m.call('POST', '/v1/customers', { body: { email: 'b@example.is', external_id: ext } }), 409, 'resource_conflict', 'external_id');
    assert.equal(await env.db.event.count({ where: { merchantId: m.id, type: 'customer.created' } }), before);
    // Another merchant sees none of them.
    assert.deepEqual(
      ((await other.call('GET', '/v1/webhook_events?type=customer.created&limit=100')).body.data as any[]).filter((e) => e.data.id === created.body.id),
      [],
    );
  });
});
