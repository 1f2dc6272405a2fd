import { yup } from '../../validate';
import { idField } from '../../fields';

export const INVOICE_STATUSES = ['draft', 'open', 'paid', 'void', 'uncollectible'] as const;

export const listInvoicesQuery = yup.object({
  status: yup.string().oneOf([...INVOICE_STATUSES], `status must be one of ${INVOICE_STATUSES.join(', ')}`),
  customer: idField(),
  subscription: idField(),
});
