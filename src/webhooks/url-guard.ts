// Which webhook endpoint URLs the service may call (docs/webhooks.md): HTTPS only, and never an
// address inside our own network (loopback, private, link-local, cloud metadata, ...),
// neither as a literal in the URL nor after DNS resolution. The sender connects to the
// address checked here (see sender.ts), so a DNS answer cannot change between check and use.
import { promises as dnsPromises } from 'node:dns';
import { isIP } from 'node:net';
import { IPv4, IPv6, isValid, parse } from 'ipaddr.js';

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
// Address classification. net.isIP decides whether the text is an address (strict dotted
// decimal: ipaddr.js alone would also read '010.0.0.1' or '0x7f.1' as octal or hex); ipaddr.js
// parses it and matches it against the CIDR blocks below. The classes are ours, not ipaddr.js's
// range() names: we tell metadata, documentation and CGNAT apart, and look inside every IPv6
// form that carries an IPv4 address.

/** Classifies an IP address in text form; anything that is not one is 'invalid'. */
export function classifyIp(ip: string): IpClass {
  const text = stripBrackets(ip.trim());
  // A zone id (fe80::1%eth0) selects an interface; the address alone decides the class.
  const zoneAt = text.indexOf('%');
  const address = zoneAt === -1 ? text : text.slice(0, zoneAt);
  if (isIP(text) === 0 || !isValid(address)) return 'invalid';
  const parsed = parse(address);
  return parsed.kind() === 'ipv4' ? classifyIpv4(parsed as IPv4) : classifyIpv6(parsed as IPv6);
}

// Most specific first: the first match wins.
const IPV4_BLOCKS: ReadonlyArray<readonly [block: [IPv4, number], ipClass: IpClass]> = [
  [IPv4.parseCIDR('169.254.169.254/32'), 'metadata'], // AWS, GCP, Azure, OCI instance metadata
  [IPv4.parseCIDR('255.255.255.255/32'), 'broadcast'],
  [IPv4.parseCIDR('0.0.0.0/8'), 'unspecified'], // "this network"; Linux connects 0.0.0.0 to the local host
  [IPv4.parseCIDR('10.0.0.0/8'), 'private'],
  [IPv4.parseCIDR('100.64.0.0/10'), 'cgnat'], // shared address space, also Alibaba's metadata 100.100.100.200
  [IPv4.parseCIDR('127.0.0.0/8'), 'loopback'],
  [IPv4.parseCIDR('169.254.0.0/16'), 'link_local'],
  [IPv4.parseCIDR('172.16.0.0/12'), 'private'],
  [IPv4.parseCIDR('192.0.0.0/24'), 'reserved'], // IETF protocol assignments
  [IPv4.parseCIDR('192.0.2.0/24'), 'documentation'],
  [IPv4.parseCIDR('192.88.99.0/24'), 'reserved'], // former 6to4 relay anycast
  [IPv4.parseCIDR('192.168.0.0/16'), 'private'],
  [IPv4.parseCIDR('198.18.0.0/15'), 'benchmarking'],
  [IPv4.parseCIDR('198.51.100.0/24'), 'documentation'],
  [IPv4.parseCIDR('203.0.113.0/24'), 'documentation'],
  [IPv4.parseCIDR('224.0.0.0/4'), 'multicast'],
  [IPv4.parseCIDR('240.0.0.0/4'), 'reserved'],
];

function classifyIpv4(address: IPv4): IpClass {
  return IPV4_BLOCKS.find(([block]) => address.match(block))?.[1] ?? 'public';
}

/** A class, or the IPv4 address the IPv6 address carries, whose class decides. */
type Ipv6Verdict = IpClass | ((address: IPv6) => IPv4);

const lowest32Bits = (address: IPv6) => new IPv4(address.toByteArray().slice(12));
const sixToFourBits = (address: IPv6) => new IPv4(address.toByteArray().slice(2, 6)); // 2002:AABB:CCDD::

// Most specific first: the first match wins.
const IPV6_RULES: ReadonlyArray<readonly [block: [IPv6, number], verdict: Ipv6Verdict]> = [
  [IPv6.parseCIDR('::/128'), 'unspecified'],
  [IPv6.parseCIDR('::1/128'), 'loopback'],
  [IPv6.parseCIDR('fd00:ec2::254/128'), 'metadata'], // AWS instance metadata over IPv6
  [IPv6.parseCIDR('::ffff:0:0/96'), lowest32Bits], // IPv4-mapped
  [IPv6.parseCIDR('::ffff:0:0:0/96'), lowest32Bits], // IPv4-translated (SIIT)
  [IPv6.parseCIDR('::/96'), lowest32Bits], // IPv4-compatible (deprecated)
  [IPv6.parseCIDR('64:ff9b::/96'), lowest32Bits], // NAT64 well-known prefix
  [IPv6.parseCIDR('64:ff9b:1::/48'), 'private'], // local-use NAT64, RFC 8215: translates into our network
  [IPv6.parseCIDR('100::/64'), 'reserved'], // discard-only
  [IPv6.parseCIDR('2001:db8::/32'), 'documentation'],
  [IPv6.parseCIDR('2001::/23'), 'reserved'], // IETF protocol assignments: Teredo, ORCHID, ...
  [IPv6.parseCIDR('2002::/16'), sixToFourBits], // 6to4
  [IPv6.parseCIDR('3fff::/20'), 'documentation'], // RFC 9637
  [IPv6.parseCIDR('fc00::/7'), 'private'], // unique local
  [IPv6.parseCIDR('fe80::/10'), 'link_local'],
  [IPv6.parseCIDR('fec0::/10'), 'private'], // deprecated site-local
  [IPv6.parseCIDR('ff00::/8'), 'multicast'],
  [IPv6.parseCIDR('2000::/3'), 'public'], // global unicast
];

function classifyIpv6(address: IPv6): IpClass {
  const verdict = IPV6_RULES.find(([block]) => address.match(block))?.[1];
  // Outside 2000::/3 nothing is allocated for unicast on the internet.
  if (verdict === undefined) return 'reserved';
  return typeof verdict === 'function' ? classifyIpv4(verdict(address)) : verdict;
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
