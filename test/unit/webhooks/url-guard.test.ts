import assert from 'node:assert/strict';
import { checkEndpointUrl, classifyIp, resolveAndCheck, type IpClass, type LookupAll } from '../../../src/webhooks/url-guard';

// DNS is always injected: these tests never query a real resolver.
function fakeDns(records: Record<string, string[]>): LookupAll & { calls: string[] } {
  const calls: string[] = [];
  const lookup = async (hostname: string) => {
    calls.push(hostname);
    const addresses = records[hostname];
    if (addresses === undefined) {
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    }
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return Object.assign(lookup, { calls });
}

describe('webhooks/url-guard', () => {
  describe('checkEndpointUrl', () => {
    const cases: Array<[url: string, expected: 'ok' | string]> = [
      ['https://example.com', 'ok'],
      ['https://example.com:8443/hooks/billing?x=1', 'ok'],
      ['https://172.32.0.1/', 'ok'], // just outside 172.16.0.0/12
      ['https://8.8.8.8/', 'ok'],
      ['https://[2606:4700::1111]/', 'ok'],
      ['http://example.com', 'https_required'],
      ['ftp://example.com', 'https_required'],
      ['https://localhost', 'hostname_not_allowed'],
      ['https://LOCALHOST./', 'hostname_not_allowed'],
      ['https://api.localhost/', 'hostname_not_allowed'],
      ['https://metadata.google.internal/', 'hostname_not_allowed'],
      ['https://billing.internal/', 'hostname_not_allowed'],
      ['https://printer.local/', 'hostname_not_allowed'],
      ['https://intranet/', 'hostname_not_allowed'],
      ['https://127.0.0.1', 'forbidden_address'],
      ['https://127.1.2.3:8443/', 'forbidden_address'],
      ['https://0x7f.1/', 'forbidden_address'], // the URL parser turns this into 127.0.0.1
      ['https://2130706433/', 'forbidden_address'],
      ['https://[::1]', 'forbidden_address'],
      ['https://10.0.0.1', 'forbidden_address'],
      ['https://172.16.5.4', 'forbidden_address'],
      ['https://192.168.1.1', 'forbidden_address'],
      ['https://169.254.169.254', 'forbidden_address'],
      ['https://[fe80::1]', 'forbidden_address'],
      ['https://[fd00:ec2::254]/', 'forbidden_address'],
      ['https://[::ffff:127.0.0.1]', 'forbidden_address'],
      ['https://[::ffff:7f00:1]', 'forbidden_address'],
      ['https://[::ffff:a9fe:a9fe]/', 'forbidden_address'],
      ['https://[64:ff9b::a00:1]/', 'forbidden_address'],
      ['https://0.0.0.0', 'forbidden_address'],
      ['https://100.64.0.1', 'forbidden_address'],
      ['https://224.0.0.1', 'forbidden_address'],
      ['https://255.255.255.255', 'forbidden_address'],
      ['https://user:pw@example.com', 'credentials_in_url'],
      ['https://user@example.com', 'credentials_in_url'],
      ['not a url', 'invalid_url'],
      ['', 'invalid_url'],
      [`https://example.com/${'a'.repeat(2048)}`, 'url_too_long'],
    ];

    for (const [url, expected] of cases) {
      it(`${expected === 'ok' ? 'accepts' : 'refuses'} ${url.length > 60 ? `${url.slice(0, 40)}… (${url.length} chars)` : JSON.stringify(url)}`, () => {
        const result = checkEndpointUrl(url);
        if (expected === 'ok') {
          assert.equal(result.ok, true, JSON.stringify(result));
        } else {
          assert.equal(result.ok, false);
          assert.ok(!result.ok);
          assert.equal(result.code, expected, result.message);
          assert.ok(result.message.length > 0);
        }
      });
    }

    it('accepts a URL of exactly 2048 characters', () => {
      const base = 'https://example.com/';
      const url = base + 'a'.repeat(2048 - base.length);
      assert.equal(url.length, 2048);
      assert.equal(checkEndpointUrl(url).ok, true);
    });

    it('returns the hostname without brackets and the effective port', () => {
      const result = checkEndpointUrl('https://[2606:4700::1111]/x');
      assert.ok(result.ok);
      assert.equal(result.hostname, '2606:4700::1111');
      assert.equal(result.port, 443);
      const named = checkEndpointUrl('https://Example.COM.:8443/x');
      assert.ok(named.ok);
      assert.equal(named.hostname, 'example.com');
      assert.equal(named.port, 8443);
    });

    it('with allowLoopback admits loopback only', () => {
      const options = { allowLoopback: true };
      assert.equal(checkEndpointUrl('https://127.0.0.1:8443/', options).ok, true);
      assert.equal(checkEndpointUrl('https://[::1]/', options).ok, true);
      assert.equal(checkEndpointUrl('https://localhost/', options).ok, true);
      for (const url of ['https://10.0.0.1/', 'https://169.254.169.254/', 'https://0.0.0.0/', 'https://[fe80::1]/', 'http://127.0.0.1/', 'https://x.internal/']) {
        assert.equal(checkEndpointUrl(url, options).ok, false, url);
      }
    });
  });

  describe('classifyIp', () => {
    const table: Array<[ip: string, expected: IpClass]> = [
      ['8.8.8.8', 'public'],
      ['1.1.1.1', 'public'],
      ['172.15.255.255', 'public'],
      ['172.32.0.1', 'public'],
      ['100.63.255.255', 'public'],
      ['100.128.0.0', 'public'],
      ['223.255.255.255', 'public'],
      ['0.0.0.0', 'unspecified'],
      ['0.1.2.3', 'unspecified'],
      ['10.0.0.1', 'private'],
      ['10.255.255.255', 'private'],
      ['100.64.0.1', 'cgnat'],
      ['100.127.255.255', 'cgnat'],
      ['127.0.0.1', 'loopback'],
      ['127.255.255.254', 'loopback'],
      ['169.254.0.1', 'link_local'],
      ['169.254.169.254', 'metadata'],
      ['172.16.0.0', 'private'],
      ['172.31.255.255', 'private'],
      ['192.0.0.8', 'reserved'],
      ['192.0.2.1', 'documentation'],
      ['192.168.1.1', 'private'],
      ['198.18.0.1', 'benchmarking'],
      ['198.19.255.255', 'benchmarking'],
      ['198.20.0.0', 'public'],
      ['224.0.0.1', 'multicast'],
      ['239.255.255.255', 'multicast'],
      ['240.0.0.1', 'reserved'],
      ['255.255.255.254', 'reserved'],
      ['255.255.255.255', 'broadcast'],
      ['::', 'unspecified'],
      ['::1', 'loopback'],
      ['0:0:0:0:0:0:0:1', 'loopback'],
      ['[::1]', 'loopback'],
      ['2606:4700:4700::1111', 'public'],
      ['2001:4860:4860::8888', 'public'],
      ['fc00::1', 'private'],
      ['fd12:3456::1', 'private'],
      ['fd00:ec2::254', 'metadata'],
      ['fe80::1', 'link_local'],
      ['fe80::1%eth0', 'link_local'],
      ['febf::1', 'link_local'],
      ['fec0::1', 'private'],
      ['ff02::1', 'multicast'],
      ['::ffff:127.0.0.1', 'loopback'],
      ['::ffff:7f00:1', 'loopback'],
      ['::FFFF:7F00:0001', 'loopback'],
      ['::ffff:10.1.2.3', 'private'],
      ['::ffff:169.254.169.254', 'metadata'],
      ['::ffff:8.8.8.8', 'public'],
      ['::127.0.0.1', 'loopback'], // IPv4-compatible
      ['::a00:1', 'private'],
      ['::ffff:0:a00:1', 'private'], // IPv4-translated
      ['64:ff9b::127.0.0.1', 'loopback'], // NAT64
      ['64:ff9b::a9fe:a9fe', 'metadata'],
      ['64:ff9b::808:808', 'public'],
      ['64:ff9b:1::a00:1', 'private'],
      ['2002:7f00:1::1', 'loopback'], // 6to4 of 127.0.0.1
      ['2002:808:808::1', 'public'],
      ['2001:db8::1', 'documentation'],
      ['2001::1', 'reserved'], // Teredo
      ['100::1', 'reserved'],
      ['4000::1', 'reserved'], // outside 2000::/3
      ['not-an-ip', 'invalid'],
      ['010.0.0.1', 'invalid'],
      ['1.2.3', 'invalid'],
      ['1::2::3', 'invalid'],
      ['', 'invalid'],
    ];
    for (const [ip, expected] of table) {
      it(`${JSON.stringify(ip)} is ${expected}`, () => assert.equal(classifyIp(ip), expected));
    }

    it('classifies every spelling of an IPv6 address alike and refuses malformed ones', () => {
      for (const ip of ['::1', '0:0:0:0:0:0:0:1', '0000::0.0.0.1', '::0001']) assert.equal(classifyIp(ip), 'loopback', ip);
      for (const ip of ['::ffff:1.2.3.4', '::ffff:102:304', '0:0:0:0:0:ffff:0102:0304']) assert.equal(classifyIp(ip), 'public', ip);
      for (const ip of ['1:2:3:4:5:6:7::8', ':::', '12345::', 'g::', '1:2:3:4:5:6:7:8:9', '::ffff:1.2.3']) assert.equal(classifyIp(ip), 'invalid', ip);
    });
  });

  describe('resolveAndCheck', () => {
    const dns = () =>
      fakeDns({
        'public.example': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
        'private.example': ['10.0.0.5'],
        'mixed.example': ['93.184.216.34', '192.168.0.10'],
        'mixed6.example': ['2606:2800:220:1::1', 'fd00::1'],
        'mapped.example': ['::ffff:127.0.0.1'],
        'metadata.example': ['169.254.169.254'],
        'loopback.example': ['127.0.0.1', '::1'],
        'empty.example': [],
        'garbage.example': ['not-an-address'],
      });

    it('accepts a name whose addresses are all public and returns every one', async () => {
      const lookup = dns();
      const result = await resolveAndCheck('public.example', { lookup });
      assert.deepEqual(result, {
        ok: true,
        addresses: [
          { address: '93.184.216.34', family: 4 },
          { address: '2606:2800:220:1:248:1893:25c8:1946', family: 6 },
        ],
      });
      assert.deepEqual(lookup.calls, ['public.example']);
    });

    it('refuses a name resolving to a private address', async () => {
      const result = await resolveAndCheck('private.example', { lookup: dns() });
      assert.ok(!result.ok);
      assert.equal(result.code, 'forbidden_address');
      assert.equal(result.address, '10.0.0.5');
      assert.ok(!result.message.includes('10.0.0.5'), 'the internal address stays out of the message');
    });

    it('refuses a name with one public and one private address', async () => {
      for (const name of ['mixed.example', 'mixed6.example']) {
        const result = await resolveAndCheck(name, { lookup: dns() });
        assert.ok(!result.ok, name);
        assert.equal(result.code, 'forbidden_address');
      }
    });

    it('refuses IPv4-mapped loopback and metadata answers', async () => {
      for (const name of ['mapped.example', 'metadata.example']) {
        const result = await resolveAndCheck(name, { lookup: dns() });
        assert.ok(!result.ok, name);
        assert.equal(result.code, 'forbidden_address');
      }
    });

    it('with allowLoopback permits 127.0.0.1 but still refuses 10.0.0.1', async () => {
      const lookup = dns();
      assert.deepEqual(await resolveAndCheck('loopback.example', { lookup, allowLoopback: true }), {
        ok: true,
        addresses: [
          { address: '127.0.0.1', family: 4 },
          { address: '::1', family: 6 },
        ],
      });
      const privateResult = await resolveAndCheck('private.example', { lookup, allowLoopback: true });
      assert.ok(!privateResult.ok);
      assert.equal(privateResult.code, 'forbidden_address');
      const withoutFlag = await resolveAndCheck('loopback.example', { lookup });
      assert.equal(withoutFlag.ok, false);
    });

    it('treats resolution failures and non-addresses as dns_failed', async () => {
      for (const name of ['unknown.example', 'empty.example', 'garbage.example']) {
        const result = await resolveAndCheck(name, { lookup: dns() });
        assert.ok(!result.ok, name);
        assert.equal(result.code, 'dns_failed');
      }
    });

    it('checks literal addresses without resolving them', async () => {
      const lookup = dns();
      assert.equal((await resolveAndCheck('10.0.0.1', { lookup })).ok, false);
      assert.equal((await resolveAndCheck('[::1]', { lookup })).ok, false);
      assert.deepEqual(await resolveAndCheck('[::1]', { lookup, allowLoopback: true }), {
        ok: true,
        addresses: [{ address: '::1', family: 6 }],
      });
      assert.deepEqual(await resolveAndCheck('8.8.8.8', { lookup }), {
        ok: true,
        addresses: [{ address: '8.8.8.8', family: 4 }],
      });
      assert.deepEqual(lookup.calls, []);
    });
  });
});
