// yup at the edge. Bodies are validated strictly (no coercion: "12" is not a number), unknown
// fields are dropped, and the first failure becomes 400 validation_failed naming the param.
// Messages name the field and the rule, never the rejected value (src/validation/text.ts).
import * as yup from 'yup';
import { errors } from '../src/errors';
import type { PageParams } from '../src/db/paging';
import { isWellFormedId } from '../src/validation/input-limits';
import { excerpt } from '../src/validation/text';
import { parseEventTimestamp } from '../src/domain/usage-events/event-input';

export { yup };

// yup's default type error prints the whole rejected value (recursively, pretty-printed): a
// nested or huge value made a huge message. Every schema is built through this module, after
// this line, so they all get the plain message.
yup.setLocale({
  mixed: { notType: ({ path, type }: { path?: string; type?: string }) => `${path ?? 'this'} must be ${article(type ?? 'value')} ${type ?? 'value'}` },
});

function article(word: string): string {
  return /^[aeiou]/i.test(word) ? 'an' : 'a';
}

function toApiError(e: unknown): never {
  if (e instanceof yup.ValidationError) {
    const param = e.path ? e.path.replace(/\["([^"]+)"\]/g, '.$1').replace(/^\./, '') : undefined;
    // A schema built with its own typeError message would still carry yup's value dump: replace it.
    const message = e.type === 'typeError' && /final value was|validated value was/.test(e.errors[0] ?? '') ? `${param ?? 'this'} has the wrong type` : (e.errors[0] ?? e.message);
    throw errors.validationFailed(message, param || undefined);
  }
  throw e;
}

/**
 * Sees each schema a route validates with, as it is used (kind, schema). A seam for tools that
 * derive requests from the routes' own schemas (the route-wide fuzz test, test/api/fuzz.test.ts);
 * unset in the service. An observer that throws aborts the request before the route goes on.
 */
export type SchemaObserver = (kind: 'body' | 'query', schema: yup.AnyObjectSchema) => void;
let schemaObserver: SchemaObserver | undefined;
export function observeSchemas(observer: SchemaObserver | undefined): void {
  schemaObserver = observer;
}

/** Keeps only the keys the object schema declares (the contract: unknown fields are ignored). */
function pickKnown(schema: yup.AnyObjectSchema, value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(schema.fields)) if (k in value) out[k] = value[k];
  return out;
}

export function parseBody<S extends yup.AnyObjectSchema>(schema: S, body: Record<string, unknown>): yup.InferType<S> {
  schemaObserver?.('body', schema);
  try {
    return schema.validateSync(pickKnown(schema, body), { strict: true, abortEarly: true }) as yup.InferType<S>;
  } catch (e) {
    return toApiError(e);
  }
}

/** Query strings are strings: this schema may coerce (e.g. "true" → true) but still rejects garbage. */
export function parseQuery<S extends yup.AnyObjectSchema>(schema: S, query: Record<string, unknown>): yup.InferType<S> {
  schemaObserver?.('query', schema);
  const flat: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(query)) {
    if (Array.isArray(v)) throw errors.validationFailed(`${k} may be given only once`, k);
    flat[k] = v;
  }
  try {
    return schema.validateSync(pickKnown(schema, flat), { abortEarly: true }) as yup.InferType<S>;
  } catch (e) {
    return toApiError(e);
  }
}

export const PAGE_DEFAULT = 25;
export const PAGE_MAX = 100;

/**
 * limit: default 25, range 1–100; out-of-range integers fall back (below 1 → the default,
 * above 100 → the maximum) as the contract says; a non-integer is a validation error.
 */
export function pageParams(query: Record<string, unknown>): PageParams {
  const rawLimit = query.limit;
  const rawAfter = query.starting_after;
  if (Array.isArray(rawLimit)) throw errors.validationFailed('limit may be given only once', 'limit');
  if (Array.isArray(rawAfter)) throw errors.validationFailed('starting_after may be given only once', 'starting_after');
  let limit = PAGE_DEFAULT;
  if (rawLimit !== undefined && rawLimit !== '') {
    if (typeof rawLimit !== 'string' || !/^-?\d{1,12}$/.test(rawLimit)) {
      throw errors.validationFailed('limit must be an integer', 'limit');
    }
    const n = Number(rawLimit);
    limit = n < 1 ? PAGE_DEFAULT : n > PAGE_MAX ? PAGE_MAX : n;
  }
  let startingAfter: string | undefined;
  if (rawAfter !== undefined && rawAfter !== '') {
    // A malformed id is an unknown id: the same answer as an id that does not exist.
    if (!isWellFormedId(rawAfter)) throw errors.resourceMissing(`No such object: '${excerpt(rawAfter)}'`, 'starting_after');
    startingAfter = rawAfter;
  }
  return { limit, startingAfter };
}

/** Path ids: bounded length and charset so garbage never reaches the database (a malformed id is an unknown id). */
export function pathId(raw: string | undefined, param = 'id'): string {
  if (!isWellFormedId(raw)) throw errors.resourceMissing(`No such object: '${excerpt(raw ?? '')}'`, param);
  return raw;
}

/** A timestamp query parameter, read as usage events' timestamps are; 400 validation_failed naming `param` otherwise. */
export function timestampParam(raw: string, param: string): Date {
  const d = parseEventTimestamp(raw);
  if (!d) throw errors.validationFailed(`${param} must be an ISO 8601 timestamp such as 2026-03-01T00:00:00.000Z`, param);
  return d;
}
