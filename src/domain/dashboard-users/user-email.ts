// A dashboard user's e-mail: the format check every e-mail field uses, then lower-cased, because
// it is a sign-in name (unique across the service) and people do not type it the same way twice.
import { errors } from '../../errors';
import { validateEmail } from '../../validation';

export function normaliseUserEmail(raw: unknown, param = 'email'): string {
  if (typeof raw !== 'string') throw errors.validationFailed('email must be a string', param);
  const r = validateEmail(raw);
  if (!r.ok) throw errors.validationFailed(r.message, param);
  return r.value.toLowerCase();
}
