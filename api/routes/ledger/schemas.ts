import { yup } from '../../validate';
import { idField, text } from '../../fields';

const timestamp = () => text(64);

export const listLedgerEntriesQuery = yup.object({
  invoice: idField(),
  customer: idField(),
  account: text(200),
  'created[gt]': timestamp(),
  'created[gte]': timestamp(),
  'created[lt]': timestamp(),
  'created[lte]': timestamp(),
});

export const trialBalanceQuery = yup.object({
  as_of: timestamp(),
  customer: idField(),
});
