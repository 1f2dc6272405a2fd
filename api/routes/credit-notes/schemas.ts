import { yup } from '../../validate';
import { idField } from '../../fields';

export const listCreditNotesQuery = yup.object({
  invoice: idField(),
});
