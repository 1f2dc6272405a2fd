// Replaces an endpoint's signing secret (the new one shown once to the caller), for the API
// (POST /v1/webhook_endpoints/{id}/rotate_secret) and the dashboard alike. The old secret keeps
// signing for `expiresInSeconds` (0 to 24 h; 0 = it stops at once): during that overlap every
// attempt, retries of older events included, carries one signature per live secret (newest
// first), so receivers verify with either and can be redeployed without failing a delivery.
// A second rotation during an overlap keeps only the secret it replaces as the previous one
// (at most two secrets are ever live). Both are stored sealed (endpoint-secrets.ts).
import type { TenantDb } from '../../db/tenancy';
import type { WebhookEndpoint } from '../../generated/prisma/client';
import { errors } from '../../errors';
import { generateEndpointSecret } from '../../webhooks/signature';
import { sealEndpointSecret, type SecretKeyConfig } from './endpoint-secrets';
import { getWebhookEndpoint } from './list-webhook-endpoints';

/** The longest the old secret may keep signing after a rotation. */
export const MAX_SECRET_OVERLAP_SECONDS = 24 * 60 * 60;

export interface RotatedSecret {
  endpoint: WebhookEndpoint;
  /** The new secret in plain text: shown once, never stored readable. */
  secret: string;
}

export async function rotateWebhookEndpointSecret(
  db: TenantDb,
  config: SecretKeyConfig,
  id: string,
  input: { expiresInSeconds?: number; now?: Date } = {},
): Promise<RotatedSecret> {
  const overlap = input.expiresInSeconds ?? 0;
  if (!Number.isInteger(overlap) || overlap < 0 || overlap > MAX_SECRET_OVERLAP_SECONDS) {
    throw errors.validationFailed(`expires_in must be a whole number of seconds from 0 to ${MAX_SECRET_OVERLAP_SECONDS}`, 'expires_in');
  }
  const now = input.now ?? new Date();
  const current = await getWebhookEndpoint(db, id);
  const secret = generateEndpointSecret();
  // Compare-and-set on the stored value: two rotations racing cannot both keep "their" old secret.
  const moved = await db.webhookEndpoint.updateMany({
    where: { id, deletedAt: null, secret: current.secret },
    data: {
      secret: sealEndpointSecret(config, id, secret),
      previousSecret: overlap > 0 ? current.secret : null,
      previousSecretExpiresAt: overlap > 0 ? new Date(now.getTime() + overlap * 1000) : null,
    },
  });
  if (moved.count === 0) throw errors.resourceConflict('The endpoint was changed by another request at the same time; try again', 'id');
  return { endpoint: await getWebhookEndpoint(db, id), secret };
}
