import { yup } from '../../validate';
import { idField } from '../payments/fields';

export const listPaymentMethodsQuery = yup.object({
  customer: idField(),
});
