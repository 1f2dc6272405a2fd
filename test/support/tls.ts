// A throwaway certificate authority and a server certificate signed by it, made with the
// openssl command line in a temporary directory that is removed again. Tests serve HTTPS on
// 127.0.0.1 with { key, cert } and trust `ca` explicitly; nothing touches the system store.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestTls {
  /** PEM of the throwaway CA certificate. */
  ca: string;
  /** PEM private key of the server certificate. */
  key: string;
  /** PEM server certificate, signed by `ca`. */
  cert: string;
}

export interface TestTlsOptions {
  dnsNames?: readonly string[];
  ipAddresses?: readonly string[];
}

const DEFAULT_DNS_NAMES = ['localhost', 'hooks.test'];
const DEFAULT_IP_ADDRESSES = ['127.0.0.1', '::1'];

/** Creates a fresh CA and server certificate (valid two days) for the given names. */
export function createTestTls(options: TestTlsOptions = {}): TestTls {
  const dnsNames = options.dnsNames ?? DEFAULT_DNS_NAMES;
  const ipAddresses = options.ipAddresses ?? DEFAULT_IP_ADDRESSES;
  const dir = mkdtempSync(join(tmpdir(), 'test-tls-'));
  const file = (name: string): string => join(dir, name);
  const openssl = (args: string[]): void => {
    execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  };
  try {
    openssl([
      'req',
      '-x509',
      '-new',
      '-nodes',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-keyout',
      file('ca.key'),
      '-out',
      file('ca.pem'),
      '-days',
      '2',
      '-subj',
      '/CN=Webhook Test CA',
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    ]);
    openssl([
      'req',
      '-new',
      '-nodes',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-keyout',
      file('server.key'),
      '-out',
      file('server.csr'),
      '-subj',
      `/CN=${dnsNames[0] ?? 'localhost'}`,
    ]);
    const subjectAltNames = [...dnsNames.map((name) => `DNS:${name}`), ...ipAddresses.map((ip) => `IP:${ip}`)];
    writeFileSync(
      file('server.ext'),
      ['basicConstraints=critical,CA:FALSE', 'keyUsage=critical,digitalSignature', 'extendedKeyUsage=serverAuth', `subjectAltName=${subjectAltNames.join(',')}`, ''].join('\n'),
    );
    openssl([
      'x509',
      '-req',
      '-in',
      file('server.csr'),
      '-CA',
      file('ca.pem'),
      '-CAkey',
      file('ca.key'),
      '-set_serial',
      '2',
      '-days',
      '2',
      '-sha256',
      '-extfile',
      file('server.ext'),
      '-out',
      file('server.pem'),
    ]);
    return {
      ca: readFileSync(file('ca.pem'), 'utf8'),
      key: readFileSync(file('server.key'), 'utf8'),
      cert: readFileSync(file('server.pem'), 'utf8'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
