// The client address a request is counted under (the failed-authentication limit, the dashboard's
// sign-in limit, access logs): the socket's peer, unless that peer is a configured trusted proxy
// (TRUSTED_PROXIES, default none; docs/operations.md "Behind a load balancer"). Then the
// forwarding headers are read from the right, skipping further trusted hops: the first address
// not in the trusted set is the client. Headers from a peer that is not trusted are ignored (and
// so are its X-Forwarded-Proto/-Host), so a client cannot choose its own address or scheme.
import { BlockList, isIP } from 'node:net';
import type { Middleware } from '../context';

/** Parses TRUSTED_PROXIES: addresses and CIDR ranges, comma separated. Throws on a bad entry. */
export function parseTrustedProxies(spec: string | undefined): BlockList | null {
  const entries = (spec ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (entries.length === 0) return null;
  const list = new BlockList();
  for (const entry of entries) {
    const [addr, bits, extra] = entry.split('/');
    const family = isIP(addr ?? '');
    const type = family === 6 ? 'ipv6' : 'ipv4';
    const prefix = bits === undefined ? undefined : Number(bits);
    if (!family || extra !== undefined || (prefix !== undefined && (!/^\d+$/.test(bits!) || prefix > (family === 6 ? 128 : 32)))) {
      throw new Error(`TRUSTED_PROXIES: ${JSON.stringify(entry)} is not an IP address or CIDR range (example: 10.0.0.0/8,192.168.1.7)`);
    }
    if (prefix === undefined) list.addAddress(addr!, type);
    else list.addSubnet(addr!, prefix, type);
  }
  return list;
}

/** '::ffff:10.0.0.1' -> '10.0.0.1'; '[2001:db8::1]:443' and '10.0.0.1:443' -> the address; '' when not an address. */
function normalise(raw: string): string {
  let s = raw.trim().replace(/^"|"$/g, '');
  if (s.startsWith('[')) s = s.slice(1, s.indexOf(']'));
  else if (/^\d+\.\d+\.\d+\.\d+:\d+$/.test(s)) s = s.slice(0, s.lastIndexOf(':'));
  if (s.toLowerCase().startsWith('::ffff:') && isIP(s.slice(7)) === 4) s = s.slice(7);
  return isIP(s) ? s : '';
}

function isTrusted(list: BlockList, addr: string): boolean {
  return list.check(addr, isIP(addr) === 6 ? 'ipv6' : 'ipv4');
}

/** The hops a proxy chain reports, nearest last: RFC 7239 `Forwarded: for=…` when present, else X-Forwarded-For. */
function forwardedHops(forwarded: string | undefined, xff: string | undefined): string[] {
  if (forwarded) {
    const hops: string[] = [];
    for (const element of forwarded.split(',')) {
      const pair = element.split(';').find((p) => p.trim().toLowerCase().startsWith('for='));
      hops.push(pair ? pair.trim().slice(4) : '');
    }
    return hops;
  }
  return xff ? xff.split(',') : [];
}

/** The client address for a request whose socket peer is `peer`. */
export function resolveClientAddress(peer: string, headers: { forwarded?: string; xForwardedFor?: string }, trusted: BlockList | null): string {
  let client = normalise(peer) || peer;
  if (!trusted || !client || !isTrusted(trusted, client)) return client;
  const hops = forwardedHops(headers.forwarded, headers.xForwardedFor);
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = normalise(hops[i]!);
    if (!hop) break; // garbage, "unknown" or an obfuscated identifier: stop at the last trusted hop
    client = hop;
    if (!isTrusted(trusted, hop)) break;
  }
  return client;
}

const FORWARDING_HEADERS = ['forwarded', 'x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-host'];

/**
 * Mounted only when trusted proxies are configured (with app.proxy on, so Koa reads
 * X-Forwarded-Proto/-Host for ctx.protocol and ctx.host): sets ctx.ip, which everything else reads,
 * to the resolved client address, and drops the forwarding headers of a peer that is not trusted.
 */
export function clientAddress(trusted: BlockList): Middleware {
  return async (ctx, next) => {
    const headers = ctx.req.headers;
    const peer = ctx.req.socket.remoteAddress ?? '';
    const normalPeer = normalise(peer);
    if (!normalPeer || !isTrusted(trusted, normalPeer)) {
      for (const h of FORWARDING_HEADERS) delete headers[h];
      ctx.request.ip = normalPeer || peer;
      return next();
    }
    const xff = headers['x-forwarded-for'];
    ctx.request.ip = resolveClientAddress(peer, { forwarded: headers.forwarded, xForwardedFor: Array.isArray(xff) ? xff.join(',') : xff }, trusted);
    return next();
  };
}
