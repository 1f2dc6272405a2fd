// `billing listen --forward-to http://localhost:4242/webhooks [--events a,b]` (docs/webhooks.md
// "Receiving events on localhost"): reads the test merchant's events from the API's long poll
// (GET /v1/test_helpers/event_feed) as they are recorded, signs each with a secret made for this
// session (printed at start) exactly as a delivery is signed, POSTs it to the local URL, and prints
// one line per event with the local answer. The service itself never connects to the local URL:
// this process, on the developer's machine, does, so the SSRF rules of registered endpoints stay
// as they are. Events are forwarded once each, in the order they were recorded; a receiver that
// fails is reported, not retried (resend from the dashboard or trigger again).
import { performance } from 'node:perf_hooks';
import { generateEndpointSecret, signPayload, SIGNATURE_HEADER, TIMESTAMP_HEADER } from '../../src/webhooks/signature';
import { isEventType } from '../../src/events/types';
import { apiCaller, ApiCallError, type ApiTarget } from './api-client';

interface FeedEvent {
  id: string;
  type: string;
  created_at: string;
  data: unknown;
}

export interface ListenOptions {
  target: ApiTarget;
  forwardTo: string;
  events: string[] | null;
  /** Session secret; generated when absent. */
  secret?: string;
  write: (line: string) => void;
  signal: AbortSignal;
  /** Long-poll wait per request, seconds (the API's default is 25). */
  waitSeconds?: number;
}

export function parseEventsOption(raw: string | undefined): string[] | null {
  if (raw === undefined || raw.trim() === '' || raw.trim() === '*') return null;
  const types = raw.split(',').map((t) => t.trim());
  const unknown = types.find((t) => !isEventType(t));
  if (unknown !== undefined) throw new Error(`unknown event type: ${unknown} (docs/events.md lists them)`);
  return types;
}

function checkForwardUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`--forward-to must be a URL such as http://localhost:4242/webhooks, got ${raw}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('--forward-to must be an http:// or https:// URL');
  return url;
}

const clock = () => new Date().toISOString().slice(11, 19);

/** Forwards one event; returns the line printed for it. */
async function forward(url: URL, secret: string, event: FeedEvent, signal: AbortSignal): Promise<string> {
  // The very body a registered endpoint receives (src/domain/webhooks/attempt-delivery.ts).
  const body = JSON.stringify({ id: event.id, type: event.type, created_at: event.created_at, data: event.data });
  const timestamp = Math.floor(Date.now() / 1000);
  const started = performance.now();
  const head = `${clock()}  --> ${event.type} [${event.id}]`;
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', [TIMESTAMP_HEADER]: String(timestamp), [SIGNATURE_HEADER]: signPayload(secret, timestamp, body) },
      body,
      redirect: 'manual',
      signal: AbortSignal.any([signal, AbortSignal.timeout(30_000)]),
    });
    await res.arrayBuffer();
    return `${head}  <-- [${res.status}] POST ${url.href} (${Math.round(performance.now() - started)} ms)`;
  } catch (e) {
    const cause = (e as { cause?: { code?: string } }).cause?.code ?? (e as Error).name;
    return `${head}  <-- failed: ${cause} POST ${url.href}`;
  }
}

/** Runs until `signal` aborts; returns how many events were forwarded. */
export async function listen(opts: ListenOptions): Promise<number> {
  const url = checkForwardUrl(opts.forwardTo);
  const secret = opts.secret ?? generateEndpointSecret();
  const call = apiCaller(opts.target);
  const types = opts.events ? `&types=${encodeURIComponent(opts.events.join(','))}` : '';
  const wait = `wait=${opts.waitSeconds ?? 25}`;
  // The first call starts the feed at "now" and tells us the key works.
  let page = await call<{ data: FeedEvent[]; has_more: boolean; cursor: string }>('GET', `/v1/test_helpers/event_feed?wait=0${types}`);
  opts.write(`Ready! Forwarding ${opts.events ? opts.events.join(', ') : 'every event'} of ${opts.target.merchantId} (test mode) to ${url.href}`);
  opts.write(`Your webhook signing secret for this session is ${secret} (set it as WEBHOOK_SECRET in your receiver). Ctrl-C to quit.`);
  let forwarded = 0;
  while (!opts.signal.aborted) {
    for (const event of page.data) {
      opts.write(await forward(url, secret, event, opts.signal));
      forwarded += 1;
    }
    try {
      page = await call('GET', `/v1/test_helpers/event_feed?cursor=${encodeURIComponent(page.cursor)}&${wait}${types}`, undefined, { signal: opts.signal });
    } catch (e) {
      if (opts.signal.aborted) break;
      if (e instanceof ApiCallError && e.status < 500 && e.status !== 429) throw e;
      opts.write(`${clock()}  the API did not answer (${(e as Error).message}); trying again in 2 s`);
      await new Promise((res) => setTimeout(res, 2000));
      page = { ...page, data: [] };
    }
  }
  return forwarded;
}
