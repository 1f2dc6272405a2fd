// Endpoint signing secrets at rest (docs/webhooks.md "Signing secrets"). A secret is stored
// sealed with the service's encryption key (src/crypto/secret-box.ts, the same AES-256-GCM box
// as the accounting credentials), with the endpoint id as associated data, so a database dump
// (or a value copied to another endpoint's row) signs nothing. It is opened only to sign a
// delivery. A row written before the migration 20261127330000 may still hold its secret in plain
// text (`whsec_…`): it is read as such until `sealPlaintextEndpointSecrets` (run by every process
// at start-up) seals it.
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import type { WebhookEndpoint } from '../../generated/prisma/client';
import { isSealed, open, parseEncryptionKey, seal } from '../../crypto/secret-box';
import { ENDPOINT_SECRET_PREFIX } from '../../webhooks/signature';

export type SecretKeyConfig = Pick<Config, 'accountingEncryptionKey'>;
type SecretColumns = Pick<WebhookEndpoint, 'id' | 'secret' | 'previousSecret' | 'previousSecretExpiresAt'>;

/** Any process sealing plain rows holds this lock, so two starting processes do not both do it. */
const SEAL_LOCK_KEY = 7351003301;

function associated(endpointId: string): string {
  return `webhook-endpoint:${endpointId}`;
}

export function sealEndpointSecret(config: SecretKeyConfig, endpointId: string, secret: string): string {
  return seal(parseEncryptionKey(config.accountingEncryptionKey), secret, associated(endpointId));
}

/** The secret of a stored value: opened when sealed, as is when a not-yet-sealed plain secret. */
export function openEndpointSecret(config: SecretKeyConfig, endpointId: string, stored: string): string {
  if (stored.startsWith(ENDPOINT_SECRET_PREFIX)) return stored;
  return open(parseEncryptionKey(config.accountingEncryptionKey), stored, associated(endpointId));
}

/** The secrets that sign a delivery at `now`, newest first: the current one, and the previous one while it lives. */
export function liveEndpointSecrets(config: SecretKeyConfig, endpoint: SecretColumns, now: Date): string[] {
  const secrets = [openEndpointSecret(config, endpoint.id, endpoint.secret)];
  if (endpoint.previousSecret !== null && endpoint.previousSecretExpiresAt !== null && endpoint.previousSecretExpiresAt.getTime() > now.getTime()) {
    secrets.push(openEndpointSecret(config, endpoint.id, endpoint.previousSecret));
  }
  return secrets;
}

/**
 * Seals every secret still stored in plain text (rows from before the migration), in one
 * transaction under an advisory lock; returns how many values it sealed. Idempotent: a sealed
 * value is left alone.
 */
export async function sealPlaintextEndpointSecrets(db: Db, config: SecretKeyConfig): Promise<number> {
  return db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(${SEAL_LOCK_KEY}::bigint)`;
    const rows = await tx.webhookEndpoint.findMany({
      where: { OR: [{ secret: { startsWith: ENDPOINT_SECRET_PREFIX } }, { previousSecret: { startsWith: ENDPOINT_SECRET_PREFIX } }] },
      select: { id: true, secret: true, previousSecret: true },
    });
    let sealed = 0;
    for (const row of rows) {
      const data: { secret?: string; previousSecret?: string } = {};
      if (!isSealed(row.secret)) data.secret = sealEndpointSecret(config, row.id, row.secret);
      if (row.previousSecret !== null && !isSealed(row.previousSecret)) data.previousSecret = sealEndpointSecret(config, row.id, row.previousSecret);
      sealed += Object.keys(data).length;
      await tx.webhookEndpoint.update({ where: { id: row.id }, data });
    }
    return sealed;
  });
}
