// Small builders for the JSON Schema (draft 2020-12, as OpenAPI 3.1 uses) of the public objects.
// Pure data, no dependencies: src/objects/schemas.ts describes every presenter's output with them,
// and the API's OpenAPI document (api/openapi/) puts those descriptions under components.schemas.
// Objects are closed (additionalProperties: false) and every listed field is required unless
// named optional, so the contract tests (docs/openapi.md) catch a presenter that drifts.

export type JsonSchema = { [key: string]: unknown };

export const str: JsonSchema = { type: 'string' };
export const int: JsonSchema = { type: 'integer' };
export const num: JsonSchema = { type: 'number' };
export const bool: JsonSchema = { type: 'boolean' };
/** An ISO 8601 timestamp in UTC. */
export const timestamp: JsonSchema = { type: 'string', format: 'date-time' };
/** Any JSON value. */
export const anyJson: JsonSchema = {};

/** The schema, or null. */
export function nullable(s: JsonSchema): JsonSchema {
  if (typeof s.type === 'string' && !('enum' in s)) return { ...s, type: [s.type, 'null'] };
  return { anyOf: [s, { type: 'null' }] };
}

/** A string from a closed set; listing every member of T is checked by the compiler (T is usually a Prisma enum type). */
export function stringEnum<T extends string>(members: Record<T, true>): JsonSchema {
  return { type: 'string', enum: Object.keys(members) };
}

export function literal(value: string): JsonSchema {
  return { type: 'string', const: value };
}

export function arrayOf(items: JsonSchema): JsonSchema {
  return { type: 'array', items };
}

/** Metadata as objects present it: string keys to string values. */
export const metadata: JsonSchema = { type: 'object', additionalProperties: { type: 'string' } };

/** A closed object: every property required but the ones named in `optional`. */
export function object(properties: Record<string, JsonSchema>, opts: { optional?: string[]; description?: string } = {}): JsonSchema {
  const optional = new Set(opts.optional ?? []);
  return {
    type: 'object',
    ...(opts.description ? { description: opts.description } : {}),
    properties,
    required: Object.keys(properties).filter((k) => !optional.has(k)),
    additionalProperties: false,
  };
}

/** A reference to a named object schema (components.schemas in the OpenAPI document). */
export function ref(name: string): JsonSchema {
  return { $ref: `#/components/schemas/${name}` };
}
