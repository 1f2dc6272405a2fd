// Composition-root helpers for the accounting link (docs/accounting.md "Running it"):
//  - the encryption key: ACCOUNTING_ENCRYPTION_KEY, else (development only) a key kept in
//    `<BILLING_DATA_DIR>/accounting-encryption.key`, created on first start. With
//    NODE_ENV=production a missing key stops the process: live credentials are never stored
//    under a key that was generated on the spot;
//  - the two sandbox providers, started by `npm start` on loopback.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../../src/config';
import { newEncryptionKey, parseEncryptionKey } from '../../src/crypto/secret-box';
import { startAccountingSandbox, type AccountingSandbox } from '../../src/gateways/accounting/sandbox/server';

export function resolveAccountingKey(config: Config, log: (line: string) => void, env: NodeJS.ProcessEnv = process.env): string {
  if (config.accountingEncryptionKey) {
    parseEncryptionKey(config.accountingEncryptionKey); // fail early on a malformed key
    return config.accountingEncryptionKey;
  }
  if (env.NODE_ENV === 'production') {
    throw new Error('ACCOUNTING_ENCRYPTION_KEY is required when NODE_ENV=production (32 bytes, base64 or hex): accounting credentials are stored encrypted with it');
  }
  const file = path.resolve(config.dataDir, 'accounting-encryption.key');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(path.dirname(file), { recursive: true });
  const key = newEncryptionKey();
  writeFileSync(file, `${key}\n`, { mode: 0o600 });
  log(`created a development accounting encryption key in ${file} (set ACCOUNTING_ENCRYPTION_KEY in production)`);
  return key;
}

export interface RunningSandboxes {
  oauth: AccountingSandbox;
  form: AccountingSandbox;
  close(): Promise<void>;
}

function port(env: NodeJS.ProcessEnv, name: string): number {
  const raw = env[name];
  if (!raw) return 0;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new Error(`${name} must be a port number`);
  return n;
}

/** Starts both sandboxes unless their URLs are configured; returns the config that points at them. */
export async function startSandboxes(config: Config, env: NodeJS.ProcessEnv = process.env): Promise<{ config: Config; sandboxes: RunningSandboxes | null }> {
  if (config.accountingSandboxOAuthUrl || config.accountingSandboxFormUrl) return { config, sandboxes: null };
  const oauth = await startAccountingSandbox({ kind: 'oauth', port: port(env, 'ACCOUNTING_SANDBOX_OAUTH_PORT'), transientFailureRate: 0.02, rateLimitPerSecond: 20 });
  const form = await startAccountingSandbox({ kind: 'form', port: port(env, 'ACCOUNTING_SANDBOX_FORM_PORT'), transientFailureRate: 0.02, rateLimitPerSecond: 20 });
  return {
    config: {
      ...config,
      accountingSandboxOAuthUrl: oauth.url,
      accountingSandboxOAuthClientId: oauth.clientId,
      accountingSandboxOAuthClientSecret: oauth.clientSecret,
      accountingSandboxFormUrl: form.url,
    },
    sandboxes: { oauth, form, close: async () => void (await Promise.all([oauth.close(), form.close()])) },
  };
}
