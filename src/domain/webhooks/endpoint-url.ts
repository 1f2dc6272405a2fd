// The endpoint URL check at create and update time: the syntactic guard, then DNS resolution
// with every answer checked (src/webhooks/url-guard.ts). Delivery checks again before every
// attempt (the answer may have changed since) and connects only to the address it checked.
//
// A name that resolves to an address we never deliver to is refused here, so the merchant
// learns at once. A name that does not resolve right now (no such name, a resolver failure, a
// timeout) is accepted, as the large providers do: DNS is often set up after the endpoint, and
// a resolver hiccup must not make the API refuse a correct URL. Such an endpoint's deliveries
// fail with `dns_failed` and retry on the usual schedule until the name resolves (docs/webhooks.md).
import type { Mode } from '../../generated/prisma/client';
import { errors } from '../../errors';
import { checkEndpointUrl, resolveAndCheck, systemLookupAll, type LookupAll } from '../../webhooks/url-guard';
import { webhookTestingFor, type WebhookTestingOptions } from './testing';

/** The request holds a transaction open while resolving: bound the wait. */
export const DNS_CHECK_TIMEOUT_MS = 5000;

function withTimeout(lookup: LookupAll, ms: number): LookupAll {
  return (hostname) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(Object.assign(new Error('DNS lookup timed out'), { code: 'ETIMEOUT' })), ms);
      lookup(hostname).then(
        (answers) => {
          clearTimeout(timer);
          resolve(answers);
        },
        (err: unknown) => {
          clearTimeout(timer);
          reject(err);
        },
      );
    });
}

export async function assertDeliverableUrl(url: string, mode: Mode, testing: WebhookTestingOptions | undefined): Promise<void> {
  const t = webhookTestingFor(mode, testing);
  const allowLoopback = t.allowLoopback === true;
  const checked = checkEndpointUrl(url, { allowLoopback });
  if (!checked.ok) {
    if (checked.code === 'invalid_url' || checked.code === 'url_too_long') throw errors.validationFailed(`url: ${checked.message}`, 'url');
    throw errors.urlNotAllowed(checked.message, 'url');
  }
  const resolved = await resolveAndCheck(checked.hostname, { allowLoopback, lookup: withTimeout(t.lookup ?? systemLookupAll, DNS_CHECK_TIMEOUT_MS) });
  if (!resolved.ok && resolved.code !== 'dns_failed') throw errors.urlNotAllowed(resolved.message, 'url');
}
