import { yup } from '../../validate';
import { metadataField, text, vatRateField } from '../../fields';

export const createProductSchema = yup.object({
  name: text(250).required(),
  description: text(5000).nullable(),
  active: yup.boolean(),
  vat_rate: vatRateField(),
  metadata: metadataField(),
});
export type CreateProductBody = yup.InferType<typeof createProductSchema>;

export const updateProductSchema = yup.object({
  name: text(250).min(1, 'name must not be empty'),
  description: text(5000).nullable(),
  active: yup.boolean(),
  vat_rate: vatRateField(),
  metadata: metadataField(),
});

export const listProductsQuery = yup.object({
  active: yup.boolean(),
});
