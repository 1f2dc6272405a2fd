import { errors } from '../../src/errors';
import type { Next } from 'koa';
import type { AppContext, Middleware } from '../context';

/**
 * JSON bodies only: a body on POST/PUT/PATCH/DELETE must be `application/json` (415 otherwise),
 * at most `limitBytes` (413), UTF-8 and valid JSON (400 invalid_json) and an object (400
 * validation_failed). No body means `{}`. The raw text is kept for signature checks. The error
 * messages name the rule and a position, never the body's text. Hand-written on purpose
 * (@koa/bodyparser cannot refuse invalid UTF-8): docs/architecture.md "Libraries and why".
 */
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export function jsonBody(limitBytes: number): Middleware {
  // Requests without a body pass through a plain function; only a body is read asynchronously.
  return (ctx, next) => {
    if (!BODY_METHODS.has(ctx.method)) return next();
    const declared = ctx.get('Content-Length');
    const hasBody = (declared !== '' && declared !== '0') || ctx.get('Transfer-Encoding') !== '';
    if (!hasBody) return next();
    return readBody(ctx, next, declared, limitBytes);
  };
}

async function readBody(ctx: AppContext, next: Next, declared: string, limitBytes: number): Promise<unknown> {
  if (declared !== '' && Number(declared) > limitBytes) {
    throw errors.bodyTooLarge(`Request body exceeds the limit of ${limitBytes} bytes`);
  }
  const type = ctx.get('Content-Type').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') {
    throw errors.unsupportedMediaType('Request bodies must be JSON with Content-Type: application/json');
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    size += (chunk as Buffer).length;
    if (size > limitBytes) {
      ctx.req.destroy();
      throw errors.bodyTooLarge(`Request body exceeds the limit of ${limitBytes} bytes`);
    }
    chunks.push(chunk as Buffer);
  }
  let raw: string;
  try {
    raw = utf8.decode(Buffer.concat(chunks));
  } catch {
    throw errors.invalidJson('Request body is not valid UTF-8');
  }
  ctx.state.rawBody = raw;
  if (raw.trim() === '') return next();
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (e) {
    const at = /position (\d+)/.exec((e as Error).message)?.[1];
    throw errors.invalidJson(`Request body is not valid JSON${at !== undefined ? ` (at character ${at})` : ''}`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw errors.validationFailed('Request body must be a JSON object');
  }
  ctx.state.body = parsed as Record<string, unknown>;
  return next();
}
