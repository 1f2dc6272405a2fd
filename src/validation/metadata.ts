// Metadata rules (after Stripe's): an object of string keys and string values, stored and
// returned unchanged. At most 50 keys; a key is 1–40 characters without `[` or `]` (they would
// clash with form-style `metadata[key]` parameter names); a value is at most 500 characters.
// Lengths count Unicode code points, as PostgreSQL counts characters.
//
// Updates are patches: a key with a string value is set, a key with `null` is removed, keys not
// named are kept; `metadata: null` removes every key. An empty string is an ordinary value, not
// a removal (JSON has `null` for that). The 50-key limit applies to the merged result, so check
// `validateMetadata(mergeMetadataPatch(existing, patch))` after `validateMetadataPatch(patch)`.

import { codePointLength, excerpt } from './text';

export type Metadata = Record<string, string>;
export type MetadataPatch = Record<string, string | null>;

export interface MetadataProblem {
  /** The offending key, or null when the problem is with the object as a whole. */
  key: string | null;
  message: string;
}

export const METADATA_LIMITS = { maxKeys: 50, maxKeyLength: 40, maxValueLength: 500 } as const;

/** Problems with a complete metadata object (create, or the result of a merge); empty when valid. */
export function validateMetadata(input: unknown): MetadataProblem[] {
  return check(input, false);
}

/** Problems with an update patch, where `null` values (removals) are allowed. */
export function validateMetadataPatch(input: unknown): MetadataProblem[] {
  if (input === null) return [];
  return check(input, true);
}

/** Applies a validated patch: strings set, `null` removes, a `null` patch clears everything. */
export function mergeMetadataPatch(existing: Readonly<Metadata> | null | undefined, patch: Readonly<MetadataPatch> | null): Metadata {
  if (patch === null) return {};
  // A Map and Object.fromEntries keep a key named "__proto__" an ordinary own property.
  const merged = new Map<string, string>(Object.entries(existing ?? {}));
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) merged.delete(key);
    else merged.set(key, value);
  }
  return Object.fromEntries(merged);
}

function check(input: unknown, allowNull: boolean): MetadataProblem[] {
  if (!isPlainObject(input)) {
    return [{ key: null, message: 'metadata must be an object of string keys and string values' }];
  }
  const problems: MetadataProblem[] = [];
  const entries = Object.entries(input);
  if (!allowNull && entries.length > METADATA_LIMITS.maxKeys) {
    problems.push({ key: null, message: `metadata can have at most ${METADATA_LIMITS.maxKeys} keys, got ${entries.length}` });
  }
  for (const [key, value] of entries) {
    const problem = keyProblem(key) ?? valueProblem(key, value, allowNull);
    if (problem !== null) problems.push({ key, message: problem });
  }
  return problems;
}

function keyProblem(key: string): string | null {
  if (key.length === 0) return 'metadata keys must not be empty';
  if (codePointLength(key) > METADATA_LIMITS.maxKeyLength) {
    return `metadata key "${excerpt(key)}" is longer than ${METADATA_LIMITS.maxKeyLength} characters`;
  }
  if (key.includes('[') || key.includes(']')) return `metadata key "${excerpt(key)}" must not contain "[" or "]"`;
  return null;
}

function valueProblem(key: string, value: unknown, allowNull: boolean): string | null {
  if (value === null && allowNull) return null;
  if (typeof value !== 'string') {
    return allowNull ? `metadata value for "${excerpt(key)}" must be a string, or null to remove the key` : `metadata value for "${excerpt(key)}" must be a string`;
  }
  if (codePointLength(value) > METADATA_LIMITS.maxValueLength) {
    return `metadata value for "${excerpt(key)}" is longer than ${METADATA_LIMITS.maxValueLength} characters`;
  }
  return null;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
