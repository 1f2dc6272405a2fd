import { yup } from '../../validate';
import { idField } from '../../fields';

export const listPaymentMethodsQuery = yup.object({
  customer: idField(),
});
