// Checks shared by the payment use cases (payments, payment sessions, invoice items, refunds):
// the API validates the same at the edge; these keep other callers, such as checkout, from
// storing what the API would refuse.
import { isSupportedCurrency, SUPPORTED_CURRENCIES } from '../../billing/currency';
import { errors } from '../../errors';
import { validateMetadata } from '../../validation/metadata';
import { longerThan } from '../../validation/text';

export const DESCRIPTION_MAX = 1000;
export const EXTERNAL_REFERENCE_MAX = 255;

export function checkAmount(amount: number, param = 'amount'): void {
  if (!Number.isSafeInteger(amount) || amount < 1) throw errors.validationFailed(`${param} must be a positive integer in the currency's minor unit`, param);
}

export function checkCurrency(currency: string, param = 'currency'): void {
  if (typeof currency !== 'string' || !isSupportedCurrency(currency)) {
    throw errors.validationFailed(`${param} must be one of ${SUPPORTED_CURRENCIES.join(', ')}`, param);
  }
}

export function checkText(value: string | null | undefined, max: number, param: string): void {
  if (value === null || value === undefined) return;
  if (typeof value !== 'string' || longerThan(value, max)) throw errors.validationFailed(`${param} must be a string of at most ${max} characters`, param);
  if (value.includes('\u0000')) throw errors.validationFailed(`${param} must not contain NUL characters`, param);
}

export function checkMetadata(metadata: unknown, param = 'metadata'): Record<string, string> {
  if (metadata === undefined || metadata === null) return {};
  const problems = validateMetadata(metadata);
  if (problems.length > 0) throw errors.validationFailed(problems[0]!.message, problems[0]!.key ? `${param}.${problems[0]!.key}` : param);
  for (const [k, v] of Object.entries(metadata as Record<string, string>)) {
    if (k.includes('\u0000') || v.includes('\u0000')) throw errors.validationFailed('metadata must not contain NUL characters', param);
  }
  return metadata as Record<string, string>;
}
