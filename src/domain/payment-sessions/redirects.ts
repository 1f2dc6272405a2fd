// Checks on the URLs and origins a payment session carries (docs/checkout.md):
//  - return_url / cancel_url: absolute http(s) URLs without credentials, at most 2048 characters;
//    https only in live mode (test mode also allows http, for local development); when the
//    merchant has configured redirect domains, the host must be one of them or a subdomain of one.
//  - origin (embedded): scheme, host and optional port only, https only in live mode.
import { errors } from '../../errors';
import { longerThan } from '../../validation/text';
import type { Mode } from '../../generated/prisma/client';

export const URL_MAX = 2048;

function parseHttpUrl(raw: string, param: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw errors.validationFailed(`${param} must be an absolute URL`, param);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw errors.validationFailed(`${param} must be an http or https URL`, param);
  if (url.username !== '' || url.password !== '') throw errors.validationFailed(`${param} must not contain credentials`, param);
  if (url.hostname === '') throw errors.validationFailed(`${param} must name a host`, param);
  return url;
}

/** `host` is `domain` or a subdomain of it (labels compare case-insensitively; URL lower-cases hosts). */
export function hostOnDomain(host: string, domain: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  const d = domain.toLowerCase().replace(/\.$/, '');
  return h === d || h.endsWith(`.${d}`);
}

export function checkRedirectUrl(raw: string, param: string, opts: { mode: Mode; redirectDomains: readonly string[] }): string {
  if (longerThan(raw, URL_MAX)) throw errors.validationFailed(`${param} must be at most ${URL_MAX} characters`, param);
  const url = parseHttpUrl(raw, param);
  if (opts.mode === 'live' && url.protocol !== 'https:') throw errors.validationFailed(`${param} must be an https URL in live mode`, param);
  if (opts.redirectDomains.length > 0 && !opts.redirectDomains.some((d) => hostOnDomain(url.hostname, d))) {
    throw errors.urlNotAllowed(`${param} must be on one of the merchant's redirect domains (${opts.redirectDomains.join(', ')}) or a subdomain of one`, param);
  }
  return url.toString();
}

export function normalizeOrigin(raw: string, param: string, mode: Mode): string {
  if (raw.length > 255) throw errors.validationFailed(`${param} must be at most 255 characters`, param);
  const url = parseHttpUrl(raw, param);
  if ((url.pathname !== '/' && url.pathname !== '') || url.search !== '' || url.hash !== '' || /[?#]$/.test(raw) || !/^https?:\/\/[^/]+\/?$/i.test(raw)) {
    throw errors.validationFailed(`${param} must be an origin: scheme, host and optional port (e.g. https://shop.example.is)`, param);
  }
  if (mode === 'live' && url.protocol !== 'https:') throw errors.validationFailed(`${param} must be an https origin in live mode`, param);
  return url.origin;
}

/** The return URL with `session_id` added (an existing `session_id` parameter is replaced). */
export function returnUrlWithSession(returnUrl: string, sessionId: string): string {
  const url = new URL(returnUrl);
  url.searchParams.set('session_id', sessionId);
  return url.toString();
}
