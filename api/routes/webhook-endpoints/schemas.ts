import { yup } from '../../validate';
import { MAX_ENDPOINT_URL_LENGTH } from '../../../src/webhooks/url-guard';
import { MAX_SECRET_OVERLAP_SECONDS } from '../../../src/domain/webhooks/rotate-webhook-secret';

const url = yup.string().max(MAX_ENDPOINT_URL_LENGTH);
// Event type names are checked against the catalogue in the domain (src/domain/webhooks/subscribed-events.ts).
const events = yup.array(yup.string().max(100).required()).max(100);
const description = yup.string().max(1000).nullable();

export const createWebhookEndpointSchema = yup.object({
  url: url.required(),
  events: events.required(),
  description,
});
export type CreateWebhookEndpointBody = yup.InferType<typeof createWebhookEndpointSchema>;

export const updateWebhookEndpointSchema = yup.object({
  url,
  events,
  description,
  /** true disables (pending retries stop), false enables again. */
  disabled: yup.boolean(),
});
export type UpdateWebhookEndpointBody = yup.InferType<typeof updateWebhookEndpointSchema>;

export const rotateWebhookSecretSchema = yup.object({
  /** Seconds the old secret keeps signing (0 = it stops at once, the default; at most 24 h). */
  expires_in: yup.number().integer().min(0).max(MAX_SECRET_OVERLAP_SECONDS),
});
