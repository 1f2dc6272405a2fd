// Registers an HTTPS endpoint. The URL is checked syntactically and after DNS resolution
// (endpoint-url.ts); the signing secret is generated here and shown only in this response.
import type { Tenant, TenantDb } from '../../db/tenancy';
import type { WebhookEndpoint } from '../../generated/prisma/client';
import { newId } from '../../ids';
import { generateEndpointSecret } from '../../webhooks/signature';
import { assertDeliverableUrl } from './endpoint-url';
import { normalizeSubscribedEvents } from './subscribed-events';
import type { WebhookTestingOptions } from './testing';

export interface CreateWebhookEndpointInput {
  url: string;
  events: string[];
  description?: string | null;
}

export async function createWebhookEndpoint(db: TenantDb, tenant: Tenant, input: CreateWebhookEndpointInput, testing?: WebhookTestingOptions): Promise<WebhookEndpoint> {
  const events = normalizeSubscribedEvents(input.events);
  await assertDeliverableUrl(input.url, tenant.mode, testing);
  return db.webhookEndpoint.create({
    data: {
      id: newId('webhookEndpoint'),
      merchantId: tenant.merchantId,
      mode: tenant.mode,
      url: input.url,
      events,
      description: input.description ?? null,
      secret: generateEndpointSecret(),
    },
  });
}
