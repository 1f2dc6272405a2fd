// The metadata check every use case that stores metadata applies (customers, products, prices,
// subscriptions and their items).
import { errors } from '../../errors';
import { isStorableText, validateMetadata, type Metadata } from '../../validation';

/** A complete metadata object (create, or a PATCH that replaces it); `null` means `{}`. */
export function metadataOrThrow(value: unknown, param = 'metadata'): Metadata {
  if (value === null || value === undefined) return {};
  const problems = validateMetadata(value);
  if (problems.length > 0) throw errors.validationFailed(problems[0]!.message, param);
  for (const [k, v] of Object.entries(value as Metadata)) {
    if (!isStorableText(k) || !isStorableText(v)) throw errors.validationFailed('metadata must not contain NUL characters or invalid Unicode', param);
  }
  return value as Metadata;
}
