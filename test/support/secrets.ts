// The log leak check of the test suite: every service log line of a run goes to LOG_FILE
// (test/support/hooks.ts), the secrets the run creates or uses are recorded here (API keys,
// webhook secrets, tokens, passwords, cookies and card numbers, seen in the in-process API's
// requests and responses, plus every documented test card), and the root afterAll hook fails
// when any of them appears in the file.
import { readFileSync, existsSync } from 'node:fs';
import type { Context, Next } from 'koa';
import { TEST_CARDS } from '../../src/gateways/test-cards';

const secrets = new Set<string>(TEST_CARDS.map((c) => c.number));

const SECRET_VALUE = /^(?:sk|pk|rk)_(?:test|live)_[A-Za-z0-9]{8,}$|^whsec_[A-Za-z0-9_-]{8,}$/;
const SECRET_NAME = /(?:^|_)(?:password|secret|token|cvc|cvv|card_number|otp|totp)$|^number$/i;

/** Records a secret the suite used (values shorter than 8 characters are too common to search for). */
export function recordSecret(value: string | null | undefined): void {
  if (typeof value === 'string' && value.length >= 8) secrets.add(value);
}

export function recordedSecrets(): string[] {
  return [...secrets];
}

/** Walks a request or response body: secret-looking values, and values of secret-named fields (card numbers: digits only). */
export function recordSecretsIn(value: unknown, name = '', depth = 0): void {
  if (depth > 8 || value == null) return;
  if (typeof value === 'string') {
    if (SECRET_VALUE.test(value)) recordSecret(value);
    else if (SECRET_NAME.test(name)) {
      const digits = value.replace(/[ -]/g, '');
      if (/^number$|card_number/i.test(name)) {
        if (/^\d{12,19}$/.test(digits)) recordSecret(digits);
      } else recordSecret(value);
    }
    return;
  }
  if (Array.isArray(value)) value.forEach((v) => recordSecretsIn(v, name, depth + 1));
  else if (typeof value === 'object' && !Buffer.isBuffer(value)) for (const [k, v] of Object.entries(value)) recordSecretsIn(v, k, depth + 1);
}

/** Koa middleware (first in the in-process apps): records what the request and its response carry. */
export async function recordRequestSecrets(ctx: Context, next: Next): Promise<void> {
  const auth = /^Bearer\s+(\S+)/i.exec(ctx.get('Authorization') ?? '');
  if (auth) recordSecret(auth[1]);
  for (const part of (ctx.get('Cookie') ?? '').split(';')) recordSecret(part.split('=').slice(1).join('=').trim());
  try {
    await next();
  } finally {
    recordSecretsIn((ctx.state as { body?: unknown }).body);
    recordSecretsIn((ctx.request as { body?: unknown }).body);
    const body = ctx.body;
    if (typeof body === 'string' || Buffer.isBuffer(body)) {
      const text = body.toString();
      if (text.startsWith('{')) {
        try {
          recordSecretsIn(JSON.parse(text));
        } catch {
          // not JSON
        }
      }
    } else recordSecretsIn(body);
    for (const c of ([] as string[]).concat(ctx.response.get('Set-Cookie') ?? [])) recordSecret(c.split(';')[0].split('=').slice(1).join('='));
  }
}

export interface Leak {
  secret: string;
  line: number;
}

/** The recorded secrets that appear in the log text, with the first line each is on. */
export function findLeaks(logText: string, candidates: Iterable<string>): Leak[] {
  const lines = logText.split('\n');
  const leaks: Leak[] = [];
  for (const secret of candidates) {
    if (!logText.includes(secret)) continue;
    leaks.push({ secret, line: lines.findIndex((l) => l.includes(secret)) + 1 });
  }
  return leaks;
}

/** Throws when the log file holds any recorded secret (shown shortened, never whole). */
export function assertNoLeaks(file: string, candidates: Iterable<string> = secrets): void {
  if (!existsSync(file)) return;
  const leaks = findLeaks(readFileSync(file, 'utf8'), candidates);
  if (leaks.length > 0) {
    const shown = leaks.map((l) => `${l.secret.slice(0, 7)}… (${l.secret.length} chars) on line ${l.line}`);
    throw new Error(`secrets used by the tests appear in the service logs (${file}):\n  ${shown.join('\n  ')}`);
  }
}
