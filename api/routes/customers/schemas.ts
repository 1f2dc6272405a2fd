import { yup } from '../../validate';
import { metadataField, text } from '../../fields';

const fields = {
  name: text(256).nullable(),
  phone: text(40).nullable(),
  kennitala: text(20).nullable(),
  external_id: text(255).nullable(),
  vat_number: text(40).nullable(),
  currency: text(3).nullable(),
  metadata: metadataField(),
  billing_address_line1: text(200).nullable(),
  billing_address_line2: text(200).nullable(),
  billing_city: text(100).nullable(),
  billing_postal_code: text(20).nullable(),
  billing_country: text(2 + 8).nullable(),
};

/** `test_clock` (test mode only): the customer and its subscriptions follow that clock (docs/test-clocks.md). */
export const createCustomerSchema = yup.object({ email: text(254).required(), test_clock: text(255).nullable(), ...fields });
export type CreateCustomerBody = yup.InferType<typeof createCustomerSchema>;

export const updateCustomerSchema = yup.object({ email: text(254).min(1, 'email must not be empty'), ...fields });
export type UpdateCustomerBody = yup.InferType<typeof updateCustomerSchema>;
