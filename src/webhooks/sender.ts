// One HTTPS POST of a webhook event to an endpoint (docs/webhooks.md). The retry
// policy lives in the delivery workflow (see retry-schedule.ts); this file does one attempt
// and reports what happened, never throwing for anything the receiver or network does.
//
// SSRF defence: the URL is checked, the host name is resolved ONCE and every address checked
// (url-guard.ts), and the connection goes to that checked address through a pinned `lookup`
// while TLS still verifies the certificate against the host name (SNI + identity check).
// A DNS answer that changes between check and connect (rebinding) therefore has no effect.
import { request as httpsRequest } from 'node:https';
import type { IncomingMessage } from 'node:http';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import { performance } from 'node:perf_hooks';
import { SIGNATURE_HEADER, TIMESTAMP_HEADER, signatureHeaderValue, type RawBody } from './signature';
import { checkEndpointUrl, resolveAndCheck, type LookupAll, type ResolvedAddress } from './url-guard';

/** Per attempt, covering DNS, connect, TLS and the response (docs/webhooks.md: 2xx within 30 s). */
export const DEFAULT_DELIVERY_TIMEOUT_MS = 30_000;
/** The part of the response body kept for the delivery record. */
export const MAX_RESPONSE_SNIPPET_BYTES = 4096;
export const WEBHOOK_USER_AGENT = 'billing-service-webhooks/1.0';

export interface DeliverOnceInput {
  url: string;
  /** The serialised event, sent and signed byte for byte. */
  body: RawBody;
  /**
   * The endpoint's live secrets (`whsec_…`, each used whole as an HMAC key), newest first: one
   * outside a rotation, two during its overlap; one signature each in `Service-Signature`.
   */
  secrets: readonly string[];
  /** Unix seconds for `Service-Timestamp`; time is a parameter, not read here. */
  nowSeconds: number;
  timeoutMs?: number;
  /** Test-only: allow a loopback receiver. Permits loopback and nothing else. */
  allowLoopback?: boolean;
  /**
   * Test-only: CA certificates to trust instead of the system roots. Verification stays on;
   * there is deliberately no way to turn it off.
   */
  ca?: string | Buffer | ReadonlyArray<string | Buffer>;
  /** DNS resolution (all addresses); injectable for tests. Defaults to dns.lookup. */
  lookup?: LookupAll;
}

export interface DeliveryAttemptResult {
  outcome: 'delivered' | 'failed';
  /** The receiver's HTTP status, or null when no response arrived. */
  statusCode: number | null;
  /** Whole attempt in milliseconds: resolution, connect, TLS, response and body snippet. */
  latencyMs: number;
  /** null when delivered; 'timeout'; or `<code>: <detail>` for every other failure. */
  error: string | null;
  /** The first 4 KiB of the response body as UTF-8, or null when no response arrived. */
  responseBodySnippet: string | null;
}

const TIMED_OUT = Symbol('timed out');

export async function deliverOnce(input: DeliverOnceInput): Promise<DeliveryAttemptResult> {
  const started = performance.now();
  const elapsedMs = (): number => Math.round(performance.now() - started);
  const failed = (error: string): DeliveryAttemptResult => ({
    outcome: 'failed',
    statusCode: null,
    latencyMs: elapsedMs(),
    error,
    responseBodySnippet: null,
  });

  const timeoutMs = input.timeoutMs ?? DEFAULT_DELIVERY_TIMEOUT_MS;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new RangeError('timeoutMs must be a positive number');
  const allowLoopback = input.allowLoopback === true;

  const checked = checkEndpointUrl(input.url, { allowLoopback });
  if (!checked.ok) return failed(`${checked.code}: ${checked.message}`);

  // Signing before any I/O: a bad secret or timestamp is a programming error and throws.
  const body = typeof input.body === 'string' ? Buffer.from(input.body, 'utf8') : Buffer.from(input.body);
  const signature = signatureHeaderValue(input.secrets, input.nowSeconds, body);

  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), timeoutMs);
  try {
    const resolved = await untilAborted(resolveAndCheck(checked.hostname, { allowLoopback, lookup: input.lookup }), deadline.signal);
    if (resolved === TIMED_OUT) return failed('timeout');
    if (!resolved.ok) return failed(`${resolved.code}: ${resolved.message}`);

    return await postToPinnedAddress({
      hostname: checked.hostname,
      port: checked.port,
      path: `${checked.url.pathname}${checked.url.search}`,
      address: resolved.addresses[0],
      headers: {
        'Content-Type': 'application/json',
        'Content-Length': String(body.length),
        'User-Agent': WEBHOOK_USER_AGENT,
        [TIMESTAMP_HEADER]: String(input.nowSeconds),
        [SIGNATURE_HEADER]: signature,
      },
      body,
      ca: input.ca,
      signal: deadline.signal,
      elapsedMs,
    });
  } finally {
    clearTimeout(timer);
  }
}

interface PinnedPost {
  hostname: string;
  port: number;
  path: string;
  address: ResolvedAddress;
  headers: Record<string, string>;
  body: Buffer;
  ca: DeliverOnceInput['ca'];
  signal: AbortSignal;
  elapsedMs: () => number;
}

function postToPinnedAddress(post: PinnedPost): Promise<DeliveryAttemptResult> {
  return new Promise((resolve) => {
    let settled = false;
    let response: IncomingMessage | null = null;
    const snippet: Buffer[] = [];
    let snippetBytes = 0;

    const result = (error: string | null): DeliveryAttemptResult => {
      const statusCode = response?.statusCode ?? null;
      return {
        outcome: statusCode !== null && statusCode >= 200 && statusCode <= 299 ? 'delivered' : 'failed',
        statusCode,
        latencyMs: post.elapsedMs(),
        error: statusCode === null ? error : statusError(statusCode),
        responseBodySnippet: response === null ? null : Buffer.concat(snippet).toString('utf8'),
      };
    };

    const settle = (error: string | null): void => {
      if (settled) return;
      settled = true;
      post.signal.removeEventListener('abort', onDeadline);
      resolve(result(error));
      // Nothing more is read: close the connection whatever state it is in.
      req.destroy();
    };

    // Before a response the attempt failed by timing out; once the status line is in, the
    // status decides and the body snippet is best effort.
    const onDeadline = (): void => settle('timeout');

    const isIpLiteral = isIP(post.hostname) !== 0;
    const req = httpsRequest({
      method: 'POST',
      host: post.hostname, // Host header and certificate identity use the name
      port: post.port,
      path: post.path,
      headers: post.headers,
      // SNI must be a name (RFC 6066); an IP literal is verified against the IP SANs.
      servername: isIpLiteral ? undefined : post.hostname,
      lookup: pinnedLookup(post.address),
      ca: post.ca === undefined ? undefined : toCaOption(post.ca),
      rejectUnauthorized: true,
      agent: false, // a fresh connection: no pooled socket to some other address
    });

    req.on('error', (error: NodeJS.ErrnoException) => settle(describeError(error)));
    req.on('response', (res: IncomingMessage) => {
      response = res;
      res.on('data', (chunk: Buffer) => {
        const room = MAX_RESPONSE_SNIPPET_BYTES - snippetBytes;
        if (room > 0) {
          const kept = chunk.subarray(0, room);
          snippet.push(kept);
          snippetBytes += kept.length;
        }
        if (snippetBytes >= MAX_RESPONSE_SNIPPET_BYTES) settle(null);
      });
      res.on('end', () => settle(null));
      res.on('error', () => settle(null));
      res.on('close', () => settle(null));
    });

    if (post.signal.aborted) {
      onDeadline();
      return;
    }
    post.signal.addEventListener('abort', onDeadline, { once: true });
    req.end(post.body);
  });
}

/** A `lookup` for net.connect that answers with the already-checked address only. */
function pinnedLookup(pinned: ResolvedAddress): LookupFunction {
  return (_hostname, options, callback) => {
    // Asynchronous like dns.lookup; with autoSelectFamily (default since Node 20) net asks
    // for all addresses and expects an array.
    process.nextTick(() => {
      if (options.all === true) callback(null, [{ address: pinned.address, family: pinned.family }]);
      else callback(null, pinned.address, pinned.family);
    });
  };
}

function toCaOption(ca: NonNullable<DeliverOnceInput['ca']>): string | Buffer | Array<string | Buffer> {
  return typeof ca === 'string' || Buffer.isBuffer(ca) ? ca : [...ca];
}

function statusError(statusCode: number): string | null {
  if (statusCode >= 200 && statusCode <= 299) return null;
  if (statusCode >= 300 && statusCode <= 399) {
    return `redirect_not_followed: the receiver answered ${statusCode}; redirects are never followed`;
  }
  return `unexpected_status: the receiver answered ${statusCode}`;
}

function describeError(error: NodeJS.ErrnoException): string {
  return `${error.code ?? 'request_failed'}: ${error.message}`;
}

function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T | typeof TIMED_OUT> {
  if (signal.aborted) return Promise.resolve(TIMED_OUT);
  let onAbort: () => void = () => undefined;
  const aborted = new Promise<typeof TIMED_OUT>((resolve) => {
    onAbort = () => resolve(TIMED_OUT);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  return Promise.race([work, aborted]).finally(() => signal.removeEventListener('abort', onAbort));
}
