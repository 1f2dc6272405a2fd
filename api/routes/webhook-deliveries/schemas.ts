import { yup } from '../../validate';

export const listWebhookDeliveriesQuery = yup.object({
  endpoint: yup
    .string()
    .max(255)
    .matches(/^[A-Za-z0-9_-]+$/, 'endpoint must be an endpoint id'),
  event: yup
    .string()
    .max(255)
    .matches(/^[A-Za-z0-9_-]+$/, 'event must be an event id'),
});
