// Which webhook endpoint URLs the service may call (docs/webhooks.md): HTTPS only, and never an
// address inside our own network (loopback, private, link-local, cloud metadata, ...),
// neither as a literal in the URL nor after DNS resolution. The sender connects to the
// address checked here (see sender.ts), so a DNS answer cannot change between check and use.
import { promises as dnsPromises } from 'node:dns';
import { isIP } from 'node:net';

export const MAX_ENDPOINT_URL_LENGTH = 2048;

export type IpClass =
  'public' | 'loopback' | 'private' | 'link_local' | 'metadata' | 'unspecified' | 'cgnat' | 'multicast' | 'broadcast' | 'benchmarking' | 'documentation' | 'reserved' | 'invalid';

export type UrlGuardCode = 'url_too_long' | 'invalid_url' | 'https_required' | 'credentials_in_url' | 'hostname_not_allowed' | 'forbidden_address' | 'dns_failed';

export type UrlGuardFailure = { ok: false; code: UrlGuardCode; message: string };

export type EndpointUrlCheck =
  | {
      ok: true;
      url: URL;
      /** Hostname without IPv6 brackets and without a trailing dot, ready for DNS or TLS. */
      hostname: string;
      port: number;
    }
  | UrlGuardFailure;

export interface GuardOptions {
  /** Test-only: lets a loopback receiver (127.0.0.0/8, ::1) through. Nothing else. */
  allowLoopback?: boolean;
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a hostname to ALL its addresses (like dns.lookup with all: true). */
export type LookupAll = (hostname: string) => Promise<ReadonlyArray<{ address: string; family: number }>>;

export interface ResolveOptions extends GuardOptions {
  lookup?: LookupAll;
}

export type ResolveCheck =
  | { ok: true; addresses: ResolvedAddress[] }
  | (UrlGuardFailure & {
      /** The refused address, for operators' logs; kept out of `message` shown to merchants. */
      address?: string;
    });

export const systemLookupAll: LookupAll = (hostname) =>
  // verbatim: keep the resolver's order instead of reordering by family.
  dnsPromises.lookup(hostname, { all: true, verbatim: true });

// Names that always mean "this machine" or "our private network", whatever DNS says.
const FORBIDDEN_NAME_SUFFIXES = [
  'localhost', // RFC 6761
  'internal', // ICANN private-use TLD; also metadata.google.internal
  'local', // mDNS, RFC 6762
  'localdomain',
  'home.arpa', // RFC 8375
  'invalid', // RFC 6761: guaranteed never to resolve, so never a deliverable endpoint
];

function isLoopbackName(name: string): boolean {
  return name === 'localhost' || name.endsWith('.localhost');
}

function isForbiddenName(name: string): boolean {
  return FORBIDDEN_NAME_SUFFIXES.some((suffix) => name === suffix || name.endsWith(`.${suffix}`));
}

function allowed(ipClass: IpClass, options: GuardOptions): boolean {
  return ipClass === 'public' || (options.allowLoopback === true && ipClass === 'loopback');
}

/** Synchronous check of the URL's shape; the address check after DNS is resolveAndCheck. */
export function checkEndpointUrl(rawUrl: string, options: GuardOptions = {}): EndpointUrlCheck {
  if (rawUrl.length > MAX_ENDPOINT_URL_LENGTH) {
    return fail('url_too_long', `The URL is longer than ${MAX_ENDPOINT_URL_LENGTH} characters.`);
  }
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return fail('invalid_url', 'The URL could not be parsed.');
  }
  if (url.protocol !== 'https:') return fail('https_required', 'Webhook endpoints must use https.');
  if (url.username !== '' || url.password !== '') {
    return fail('credentials_in_url', 'The URL must not contain a user name or password.');
  }

  // The WHATWG parser has already lowercased the host, applied IDNA (so 'ⓛocalhost' is
  // 'localhost') and turned every IPv4 spelling (0x7f.1, 2130706433) into dotted decimal.
  const hostname = stripBrackets(url.hostname).replace(/\.+$/, '');
  if (hostname === '') return fail('invalid_url', 'The URL has no host.');
  const port = url.port === '' ? 443 : Number(url.port);

  if (isIP(hostname) !== 0) {
    const ipClass = classifyIp(hostname);
    if (!allowed(ipClass, options)) {
      return fail('forbidden_address', `The address ${hostname} is not allowed (${describeClass(ipClass)}).`);
    }
    return { ok: true, url, hostname, port };
  }

  if (isLoopbackName(hostname)) {
    // The address check after resolution still applies, and admits only loopback.
    if (options.allowLoopback === true) return { ok: true, url, hostname, port };
    return fail('hostname_not_allowed', `The host name ${hostname} is not allowed.`);
  }
  if (isForbiddenName(hostname)) return fail('hostname_not_allowed', `The host name ${hostname} is not allowed.`);
  // A single label ('intranet', 'metadata') is completed by the resolver's search domains,
  // i.e. it names something in our own network; no public endpoint looks like that.
  if (!hostname.includes('.')) {
    return fail('hostname_not_allowed', 'The host name must be a fully qualified domain name.');
  }
  return { ok: true, url, hostname, port };
}

/**
 * Resolves `hostname` to all of its addresses and refuses if ANY is forbidden: a name with
 * one public and one private address could otherwise reach the private one on a retry.
 */
export async function resolveAndCheck(hostname: string, options: ResolveOptions = {}): Promise<ResolveCheck> {
  const name = stripBrackets(hostname);
  if (isIP(name) !== 0) {
    const ipClass = classifyIp(name);
    if (!allowed(ipClass, options)) {
      return { ...fail('forbidden_address', `The address is not allowed (${describeClass(ipClass)}).`), address: name };
    }
    return { ok: true, addresses: [{ address: name, family: isIP(name) === 4 ? 4 : 6 }] };
  }

  let answers: ReadonlyArray<{ address: string; family: number }>;
  try {
    answers = await (options.lookup ?? systemLookupAll)(name);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException | undefined)?.code;
    return fail('dns_failed', `The host name ${name} could not be resolved${code ? ` (${code})` : ''}.`);
  }
  if (answers.length === 0) return fail('dns_failed', `The host name ${name} has no addresses.`);

  const addresses: ResolvedAddress[] = [];
  for (const answer of answers) {
    const family = isIP(answer.address);
    if (family === 0) {
      return fail('dns_failed', `The host name ${name} resolved to something that is not an IP address.`);
    }
    const ipClass = classifyIp(answer.address);
    if (!allowed(ipClass, options)) {
      return {
        ...fail('forbidden_address', `The host name ${name} resolves to an address that is not allowed (${describeClass(ipClass)}).`),
        address: answer.address,
      };
    }
    addresses.push({ address: answer.address, family: family === 4 ? 4 : 6 });
  }
  return { ok: true, addresses };
}

// ---------------------------------------------------------------------------------------
// Address classification. Addresses are parsed into integers (IPv4: number, IPv6: bigint)
// and compared against CIDR blocks; net.isIP decides first whether the text is an address.

/** Classifies an IP address in text form; anything that is not one is 'invalid'. */
export function classifyIp(ip: string): IpClass {
  const text = stripBrackets(ip.trim());
  // A zone id (fe80::1%eth0) selects an interface; the address alone decides the class.
  const zoneAt = text.indexOf('%');
  const address = zoneAt === -1 ? text : text.slice(0, zoneAt);
  const family = isIP(text);
  if (family === 4) {
    const value = parseIpv4(address);
    return value === null ? 'invalid' : classifyIpv4(value);
  }
  if (family === 6) {
    const value = parseIpv6(address);
    return value === null ? 'invalid' : classifyIpv6(value);
  }
  return 'invalid';
}

interface Ipv4Block {
  base: number;
  prefix: number;
  ipClass: IpClass;
}

function v4(text: string, prefix: number, ipClass: IpClass): Ipv4Block {
  const base = parseIpv4(text);
  if (base === null) throw new Error(`bad IPv4 block ${text}`);
  return { base, prefix, ipClass };
}

// Most specific first: the first match wins.
const IPV4_BLOCKS: readonly Ipv4Block[] = [
  v4('169.254.169.254', 32, 'metadata'), // AWS, GCP, Azure, OCI instance metadata
  v4('255.255.255.255', 32, 'broadcast'),
  v4('0.0.0.0', 8, 'unspecified'), // "this network"; Linux connects 0.0.0.0 to the local host
  v4('10.0.0.0', 8, 'private'),
  v4('100.64.0.0', 10, 'cgnat'), // shared address space, also Alibaba's metadata 100.100.100.200
  v4('127.0.0.0', 8, 'loopback'),
  v4('169.254.0.0', 16, 'link_local'),
  v4('172.16.0.0', 12, 'private'),
  v4('192.0.0.0', 24, 'reserved'), // IETF protocol assignments
  v4('192.0.2.0', 24, 'documentation'),
  v4('192.88.99.0', 24, 'reserved'), // former 6to4 relay anycast
  v4('192.168.0.0', 16, 'private'),
  v4('198.18.0.0', 15, 'benchmarking'),
  v4('198.51.100.0', 24, 'documentation'),
  v4('203.0.113.0', 24, 'documentation'),
  v4('224.0.0.0', 4, 'multicast'),
  v4('240.0.0.0', 4, 'reserved'),
];

function classifyIpv4(value: number): IpClass {
  for (const block of IPV4_BLOCKS) {
    const size = 2 ** (32 - block.prefix);
    if (value >= block.base && value < block.base + size) return block.ipClass;
  }
  return 'public';
}

type Ipv6Rule =
  | { base: bigint; prefix: number; ipClass: IpClass }
  // The address carries an IPv4 address whose class decides.
  | { base: bigint; prefix: number; embeddedIpv4: (value: bigint) => number };

function v6(text: string, prefix: number, ipClass: IpClass): Ipv6Rule {
  return { base: mustParseIpv6(text), prefix, ipClass };
}

function v6Embedding(text: string, prefix: number, embeddedIpv4: (value: bigint) => number): Ipv6Rule {
  return { base: mustParseIpv6(text), prefix, embeddedIpv4 };
}

function mustParseIpv6(text: string): bigint {
  const value = parseIpv6(text);
  if (value === null) throw new Error(`bad IPv6 block ${text}`);
  return value;
}

const lowest32Bits = (value: bigint): number => Number(value & 0xffffffffn);
const sixToFourBits = (value: bigint): number => Number((value >> 80n) & 0xffffffffn); // 2002:AABB:CCDD::

// Most specific first: the first match wins.
const IPV6_RULES: readonly Ipv6Rule[] = [
  v6('::', 128, 'unspecified'),
  v6('::1', 128, 'loopback'),
  v6('fd00:ec2::254', 128, 'metadata'), // AWS instance metadata over IPv6
  v6Embedding('::ffff:0:0', 96, lowest32Bits), // IPv4-mapped
  v6Embedding('::ffff:0:0:0', 96, lowest32Bits), // IPv4-translated (SIIT)
  v6Embedding('::', 96, lowest32Bits), // IPv4-compatible (deprecated)
  v6Embedding('64:ff9b::', 96, lowest32Bits), // NAT64 well-known prefix
  v6('64:ff9b:1::', 48, 'private'), // local-use NAT64, RFC 8215: translates into our network
  v6('100::', 64, 'reserved'), // discard-only
  v6('2001:db8::', 32, 'documentation'),
  v6('2001::', 23, 'reserved'), // IETF protocol assignments: Teredo, ORCHID, ...
  v6Embedding('2002::', 16, sixToFourBits), // 6to4
  v6('3fff::', 20, 'documentation'), // RFC 9637
  v6('fc00::', 7, 'private'), // unique local
  v6('fe80::', 10, 'link_local'),
  v6('fec0::', 10, 'private'), // deprecated site-local
  v6('ff00::', 8, 'multicast'),
  v6('2000::', 3, 'public'), // global unicast
];

function classifyIpv6(value: bigint): IpClass {
  for (const rule of IPV6_RULES) {
    const shift = BigInt(128 - rule.prefix);
    if (value >> shift !== rule.base >> shift) continue;
    if ('ipClass' in rule) return rule.ipClass;
    return classifyIpv4(rule.embeddedIpv4(value));
  }
  // Outside 2000::/3 nothing is allocated for unicast on the internet.
  return 'reserved';
}

/** Dotted decimal (as net.isIP accepts it) to an unsigned 32-bit number, or null. */
export function parseIpv4(text: string): number | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  let value = 0;
  for (const part of parts) {
    if (part.length === 0 || part.length > 3) return null;
    let octet = 0;
    for (const char of part) {
      const digit = char.charCodeAt(0) - 48;
      if (digit < 0 || digit > 9) return null;
      octet = octet * 10 + digit;
    }
    if (octet > 255 || (part.length > 1 && part[0] === '0')) return null;
    value = value * 256 + octet;
  }
  return value;
}

/** IPv6 text (with optional trailing dotted IPv4, no zone) to a 128-bit bigint, or null. */
export function parseIpv6(text: string): bigint | null {
  let groupsText = text;
  let tailGroups: number[] = [];
  const lastColon = text.lastIndexOf(':');
  if (lastColon === -1) return null;
  const last = text.slice(lastColon + 1);
  if (last.includes('.')) {
    const ipv4 = parseIpv4(last);
    if (ipv4 === null) return null;
    tailGroups = [Math.floor(ipv4 / 0x10000), ipv4 % 0x10000];
    // Keep the ':' so that '::1.2.3.4' stays '::' and 'a::1.2.3.4' stays 'a::'.
    groupsText = text.slice(0, lastColon + 1);
    if (groupsText.endsWith(':') && !groupsText.endsWith('::')) groupsText = groupsText.slice(0, -1);
  }

  const halves = groupsText.split('::');
  if (halves.length > 2) return null;
  const head = parseGroups(halves[0]);
  const tail = halves.length === 2 ? parseGroups(halves[1]) : [];
  if (head === null || tail === null) return null;
  const explicit = head.length + tail.length + tailGroups.length;
  let groups: number[];
  if (halves.length === 2) {
    if (explicit > 7) return null; // '::' stands for at least one zero group
    groups = [...head, ...new Array<number>(8 - explicit).fill(0), ...tail, ...tailGroups];
  } else {
    if (explicit !== 8) return null;
    groups = [...head, ...tailGroups];
  }

  let value = 0n;
  for (const group of groups) value = (value << 16n) | BigInt(group);
  return value;
}

function parseGroups(text: string): number[] | null {
  if (text === '') return [];
  const groups: number[] = [];
  for (const part of text.split(':')) {
    if (part.length === 0 || part.length > 4) return null;
    let value = 0;
    for (const char of part.toLowerCase()) {
      const digit = '0123456789abcdef'.indexOf(char);
      if (digit === -1) return null;
      value = value * 16 + digit;
    }
    groups.push(value);
  }
  return groups;
}

function stripBrackets(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

function describeClass(ipClass: IpClass): string {
  return ipClass.replace(/_/g, '-');
}

function fail(code: UrlGuardCode, message: string): UrlGuardFailure {
  return { ok: false, code, message };
}
