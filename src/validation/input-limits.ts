// The input-safety rules every request passes before any route sees it (api/middleware/
// input-safety.ts applies them; docs/errors.md states them). They do not replace a route's own
// schema: they make whole classes of hostile input impossible everywhere at once: text
// PostgreSQL cannot store, nesting deep enough to overflow a recursive formatter, and values
// large enough to make an error message or a stored response huge.
import { excerpt, longerThan, storableTextProblem } from './text';

export const INPUT_LIMITS = {
  /** Nesting of objects and arrays in a JSON body; the body object itself is level 1. */
  maxDepth: 32,
  /** Code points in any string value of a body. */
  maxStringLength: 10_000,
  /** Code points in an object key (body) or a query parameter name. */
  maxKeyLength: 255,
  /** Items in any array (a usage-event batch holds up to 1,000). */
  maxArrayItems: 1_000,
  /** Keys in any object. */
  maxObjectKeys: 1_000,
  /** Code points in a query parameter value. */
  maxQueryValueLength: 2_048,
  /** Distinct query parameters. */
  maxQueryParams: 100,
  /** A path id: 1 to 255 of A–Z, a–z, 0–9, "_" and "-" (anything else cannot exist). */
  maxIdLength: 255,
} as const;

export interface InputProblem {
  /** The top-level field (or query parameter) at fault: `metadata` for a problem at `metadata.plan`. */
  param: string;
  /** The field and the rule, never more of the value than a short escaped excerpt. */
  message: string;
}

const ID = /^[A-Za-z0-9_-]+$/;

/** True when `raw` has the shape of an object id; anything else names nothing that exists. */
export function isWellFormedId(raw: unknown): raw is string {
  return typeof raw === 'string' && raw.length > 0 && raw.length <= INPUT_LIMITS.maxIdLength && ID.test(raw);
}

const PARAM_MAX = 200;
const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;

function childPath(parent: string, key: string | number): string {
  if (parent.endsWith('…')) return parent;
  let next: string;
  if (typeof key === 'number') next = `${parent}[${key}]`;
  else if (PLAIN_KEY.test(key) && key.length <= 64) next = parent === '' ? key : `${parent}.${key}`;
  else next = `${parent}["${excerpt(key, 24)}"]`;
  return next.length > PARAM_MAX ? `${parent}…` : next;
}

function label(path: string): string {
  return path === '' ? 'the request body' : path;
}

/**
 * The first problem in a parsed JSON body (document order), or null. Walks at most
 * `maxDepth` levels, so it is safe on any value JSON.parse returns.
 */
export function findBodyProblem(body: unknown): InputProblem | null {
  const p = walk(body, null, 1);
  // `param` names the top-level field, as every other validation error does; the message names the exact place.
  return p && { ...p, param: topOf(p.param) };
}

function topOf(path: string): string {
  const m = /^(\[[^\]]*\]|[^.[]*)/.exec(path);
  return m?.[1] ?? path;
}

/**
 * Where a value sits, as a chain of keys from the body. The printed path (childPath) is built
 * only for a problem: a 1,000-event batch has ~10,000 values, and building every path as the
 * walk went cost more CPU than the batch's JSON.parse (issue 32 profile).
 */
interface Place {
  up: Place | null;
  key: string | number;
}

function pathOf(at: Place | null): string {
  return at === null ? '' : childPath(pathOf(at.up), at.key);
}

/** The top-level field a value is under ('' for the body itself): too deep a value is reported there. */
function topPathOf(at: Place | null): string {
  if (at === null) return '';
  let first = at;
  while (first.up !== null) first = first.up;
  return childPath('', first.key);
}

function walk(value: unknown, at: Place | null, depth: number): InputProblem | null {
  if (typeof value === 'string') return stringProblem(value, at, INPUT_LIMITS.maxStringLength);
  if (typeof value === 'number') {
    if (Number.isFinite(value)) return null;
    const path = pathOf(at);
    return { param: path, message: `${label(path)} must be a finite number` };
  }
  if (value === null || typeof value !== 'object') return null;
  if (depth > INPUT_LIMITS.maxDepth) {
    const top = topPathOf(at);
    return { param: top, message: `${label(top)} is nested too deeply: at most ${INPUT_LIMITS.maxDepth} levels of objects and arrays are accepted` };
  }
  if (Array.isArray(value)) {
    if (value.length > INPUT_LIMITS.maxArrayItems) {
      const path = pathOf(at);
      return { param: path, message: `${label(path)} must have at most ${INPUT_LIMITS.maxArrayItems} items` };
    }
    for (let i = 0; i < value.length; i++) {
      const p = walk(value[i], { up: at, key: i }, depth + 1);
      if (p) return p;
    }
    return null;
  }
  const keys = Object.keys(value);
  if (keys.length > INPUT_LIMITS.maxObjectKeys) {
    const path = pathOf(at);
    return { param: path, message: `${label(path)} must have at most ${INPUT_LIMITS.maxObjectKeys} keys` };
  }
  for (const key of keys) {
    const keyProblem = storableTextProblem(key);
    if (keyProblem) return { param: pathOf(at), message: `${label(pathOf(at))} has an invalid key "${excerpt(key)}": keys ${keyProblem}` };
    if (longerThan(key, INPUT_LIMITS.maxKeyLength)) {
      return { param: pathOf(at), message: `${label(pathOf(at))} has a key longer than ${INPUT_LIMITS.maxKeyLength} characters: "${excerpt(key)}"` };
    }
    const p = walk((value as Record<string, unknown>)[key], { up: at, key }, depth + 1);
    if (p) return p;
  }
  return null;
}

function stringProblem(s: string, at: Place | string | null, max: number): InputProblem | null {
  const problem = storableTextProblem(s);
  if (problem === null && !longerThan(s, max)) return null;
  const path = typeof at === 'string' ? at : pathOf(at);
  if (problem) return { param: path, message: `${label(path)} ${problem}` };
  return { param: path, message: `${label(path)} must be at most ${max} characters` };
}

/** The first problem in a parsed query string (`name → value | values`), or null. */
export function findQueryProblem(query: Record<string, unknown>): InputProblem | null {
  const keys = Object.keys(query);
  if (keys.length > INPUT_LIMITS.maxQueryParams) {
    return { param: 'query', message: `at most ${INPUT_LIMITS.maxQueryParams} query parameters are accepted` };
  }
  for (const key of keys) {
    const keyProblem = storableTextProblem(key);
    if (keyProblem) return { param: 'query', message: `the query parameter name "${excerpt(key)}" is invalid: names ${keyProblem}` };
    if (longerThan(key, INPUT_LIMITS.maxKeyLength)) {
      return { param: 'query', message: `a query parameter name is longer than ${INPUT_LIMITS.maxKeyLength} characters: "${excerpt(key)}"` };
    }
    const param = childPath('', key);
    const raw = query[key];
    const values = Array.isArray(raw) ? raw : [raw];
    if (values.length > INPUT_LIMITS.maxArrayItems) return { param, message: `${param} is repeated too often` };
    for (const v of values) {
      if (typeof v !== 'string') continue;
      const p = stringProblem(v, param, INPUT_LIMITS.maxQueryValueLength);
      if (p) return p;
    }
  }
  return null;
}
