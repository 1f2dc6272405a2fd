import { yup } from '../../validate';
import { currencyField, idField, metadataField, positiveAmount, text } from '../../fields';

export const PAYMENT_STATUSES = ['requires_payment_method', 'processing', 'succeeded', 'failed', 'canceled', 'partially_refunded', 'refunded'] as const;

export const createPaymentSchema = yup.object({
  amount: positiveAmount().required(),
  currency: currencyField().nullable(),
  description: text(1000).nullable(),
  customer: idField().nullable(),
  payment_method: idField().nullable(),
  confirm: yup.boolean().nullable(),
  external_reference: text(255).nullable(),
  metadata: metadataField(),
});
export type CreatePaymentBody = yup.InferType<typeof createPaymentSchema>;

export const confirmPaymentSchema = yup.object({
  payment_method: idField().nullable(),
});

export const listPaymentsQuery = yup.object({
  status: yup.string().oneOf([...PAYMENT_STATUSES], `status must be one of ${PAYMENT_STATUSES.join(', ')}`),
  customer: idField(),
});
