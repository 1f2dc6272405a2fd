import { yup } from '../../validate';
import { idField } from '../payments/fields';

export const listCreditNotesQuery = yup.object({
  invoice: idField(),
});
