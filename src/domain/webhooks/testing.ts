// Test-only relaxations of webhook delivery. Off by default: no environment variable or config
// field turns them on; only code that composes an app or a worker itself (the test suite) can
// pass them, and the relaxing ones apply to TEST-MODE endpoints only, so live mode never sees
// them. A `lookup` override applies in both modes because it relaxes nothing: its answers go
// through the same address guard (tests use it to make names resolve to private addresses).
import type { Mode } from '../../generated/prisma/client';
import type { LookupAll } from '../../webhooks/url-guard';

export interface WebhookTestingOptions {
  /** Accept and deliver to loopback receivers (127.0.0.0/8, ::1): nothing else is relaxed. */
  allowLoopback?: boolean;
  /** CA certificate(s) to trust instead of the system roots (a throwaway test CA). */
  ca?: string | readonly string[];
  /** Per-attempt timeout instead of 30 s. */
  attemptTimeoutMs?: number;
  /** Waits between automatic attempts instead of the documented schedule (its length + 1 is the attempt count). */
  retryDelaysMs?: readonly number[];
  /** DNS resolution of endpoint host names (all addresses); answers are still checked. */
  lookup?: LookupAll;
}

/** The options that apply to an endpoint of `mode`: in live mode only the DNS override. */
export function webhookTestingFor(mode: Mode, options: WebhookTestingOptions | undefined): WebhookTestingOptions {
  if (options === undefined) return {};
  if (mode !== 'test') return options.lookup ? { lookup: options.lookup } : {};
  return options;
}
