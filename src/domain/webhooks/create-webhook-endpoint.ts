// Registers an HTTPS endpoint. The URL is checked syntactically and after DNS resolution
// (endpoint-url.ts); the signing secret is generated here, stored sealed (endpoint-secrets.ts)
// and returned in plain text only to this caller.
import type { Tenant, TenantDb } from '../../db/tenancy';
import type { WebhookEndpoint } from '../../generated/prisma/client';
import { newId } from '../../ids';
import { generateEndpointSecret } from '../../webhooks/signature';
import { assertDeliverableUrl } from './endpoint-url';
import { normalizeSubscribedEvents } from './subscribed-events';
import type { WebhookTestingOptions } from './testing';
import { sealEndpointSecret, type SecretKeyConfig } from './endpoint-secrets';
import type { RotatedSecret } from './rotate-webhook-secret';

export interface CreateWebhookEndpointInput {
  url: string;
  events: string[];
  description?: string | null;
}

export async function createWebhookEndpoint(
  db: TenantDb,
  tenant: Tenant,
  config: SecretKeyConfig,
  input: CreateWebhookEndpointInput,
  testing?: WebhookTestingOptions,
): Promise<RotatedSecret> {
  const events = normalizeSubscribedEvents(input.events);
  await assertDeliverableUrl(input.url, tenant.mode, testing);
  const id = newId('webhookEndpoint');
  const secret = generateEndpointSecret();
  const endpoint: WebhookEndpoint = await db.webhookEndpoint.create({
    data: {
      id,
      merchantId: tenant.merchantId,
      mode: tenant.mode,
      url: input.url,
      events,
      description: input.description ?? null,
      secret: sealEndpointSecret(config, id, secret),
    },
  });
  return { endpoint, secret };
}
