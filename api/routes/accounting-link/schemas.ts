import { yup } from '../../validate';
import { idField, text } from '../../fields';

export const connectSchema = yup.object({
  provider: text(100).required(),
  mode: yup.string().oneOf(['test', 'live'], 'mode must be test or live'),
});

export const completeSchema = yup.object({
  provider: text(100).required(),
  credentials: yup.object().typeError('credentials must be an object').required(),
});

export const settingsSchema = yup.object({
  default_gl_account: text(100).min(1, 'default_gl_account must not be empty'),
  vat_code_mapping: yup.object().typeError('vat_code_mapping must be an object'),
});

export const callbackQuery = yup.object({
  code: text(500),
  state: text(500),
  error: text(200),
  error_description: text(1000),
});

export const listSyncRecordsQuery = yup.object({
  status: yup.string().oneOf(['pending', 'synced', 'failed'], 'status must be pending, synced or failed'),
  starting_after: idField(),
  /** A link of the merchant, current or replaced/disconnected (its audit trail); default the current one. */
  link: idField(),
});
