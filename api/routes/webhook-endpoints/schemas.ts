import { yup } from '../../validate';
import { MAX_ENDPOINT_URL_LENGTH } from '../../../src/webhooks/url-guard';

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
