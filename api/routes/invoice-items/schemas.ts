import { yup } from '../../validate';
import { currencyField, idField, metadataField, positiveAmount, text, vatRateField } from '../../fields';

export const createInvoiceItemSchema = yup.object({
  customer: idField().required(),
  amount: positiveAmount().required(),
  description: text(500).required(),
  subscription: idField().nullable(),
  currency: currencyField().nullable(),
  quantity: yup.number().integer('${path} must be an integer').min(1, '${path} must be at least 1').max(1_000_000_000, '${path} must be at most 1000000000').nullable(),
  vat_rate: vatRateField(),
  metadata: metadataField(),
});
export type CreateInvoiceItemBody = yup.InferType<typeof createInvoiceItemSchema>;

export const listInvoiceItemsQuery = yup.object({
  customer: idField(),
  subscription: idField(),
  pending: yup.boolean().typeError('pending must be true or false'),
});
