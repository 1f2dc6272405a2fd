import { yup } from '../../validate';
import { currencyField, idField, metadataField, positiveAmount, text } from '../../fields';

export const createPaymentSessionSchema = yup.object({
  mode: yup
    .string()
    .oneOf(['hosted', 'embedded'] as const, 'mode must be hosted or embedded')
    .nullable(),
  payment: idField().nullable(),
  amount: positiveAmount().nullable(),
  currency: currencyField().nullable(),
  description: text(1000).nullable(),
  customer: idField().nullable(),
  customer_email: text(254).nullable(),
  return_url: text(2048).nullable(),
  cancel_url: text(2048).nullable(),
  origin: text(255).nullable(),
  enabled_methods: yup
    .array(yup.string().required('enabled_methods must hold strings').max(40, 'enabled_methods entries must be at most 40 characters'))
    .max(10, 'enabled_methods can name at most 10 methods')
    .nullable(),
  locale: text(35).nullable(),
  save_payment_method: yup.boolean().nullable(),
  external_reference: text(255).nullable(),
  metadata: metadataField(),
});
export type CreatePaymentSessionBody = yup.InferType<typeof createPaymentSessionSchema>;
