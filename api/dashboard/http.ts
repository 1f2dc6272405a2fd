// Request and response plumbing of the dashboard pages: security headers (a strict CSP like the
// checkout pages', plus form-action 'self'), the session and sign-in cookies, and form bodies.
import { randomBytes } from 'node:crypto';
import type { AppContext } from '../context';
import { errors } from '../../src/errors';

export { DASHBOARD_SESSION_COOKIE as SESSION_COOKIE } from '../middleware/auth';
import { DASHBOARD_SESSION_COOKIE as SESSION_COOKIE } from '../middleware/auth';
/** Double-submit token of the sign-in and invitation forms (there is no session yet to hold one). */
export const PRE_SESSION_COOKIE = 'billing_dashboard_pre';
export const FORM_LIMIT_BYTES = 64 * 1024;

export function dashboardCsp(): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    "object-src 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export function setDashboardHeaders(ctx: AppContext): void {
  ctx.set('Content-Security-Policy', dashboardCsp());
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Referrer-Policy', 'same-origin');
  ctx.set('Cache-Control', 'no-store');
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('Cross-Origin-Opener-Policy', 'same-origin');
  ctx.set('Cross-Origin-Resource-Policy', 'same-origin');
  ctx.set('Permissions-Policy', 'camera=(), microphone=(), geolocation=()');
}

function cookieOptions(ctx: AppContext, maxAgeMs?: number) {
  return {
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: ctx.secure,
    path: '/',
    overwrite: true,
    ...(maxAgeMs !== undefined ? { maxAge: maxAgeMs } : {}),
  };
}

export function setSessionCookie(ctx: AppContext, token: string, maxAgeMs: number): void {
  ctx.cookies.set(SESSION_COOKIE, token, cookieOptions(ctx, maxAgeMs));
}

export function clearSessionCookie(ctx: AppContext): void {
  ctx.cookies.set(SESSION_COOKIE, '', { ...cookieOptions(ctx), maxAge: 0, expires: new Date(0) });
}

export function sessionToken(ctx: AppContext): string | undefined {
  return ctx.cookies.get(SESSION_COOKIE) || undefined;
}

/** The pre-session token, set when missing (sign-in and invitation pages). */
export function preSessionToken(ctx: AppContext): string {
  const existing = ctx.cookies.get(PRE_SESSION_COOKIE);
  if (existing && /^[A-Za-z0-9_-]{32}$/.test(existing)) return existing;
  const token = randomBytes(24).toString('base64url');
  ctx.cookies.set(PRE_SESSION_COOKIE, token, { ...cookieOptions(ctx, 3600_000), sameSite: 'strict' });
  return token;
}

export function clientIp(ctx: AppContext): string {
  return ctx.ip || ctx.request.socket.remoteAddress || 'unknown';
}

export function userAgent(ctx: AppContext): string | null {
  return ctx.get('User-Agent') || null;
}

/** Same-origin check for state changes (defence in depth beside the CSRF token). */
export function assertSameOrigin(ctx: AppContext): void {
  const origin = ctx.get('Origin');
  // Our own origin from the Host header (Koa 3's ctx.origin reflects the request's Origin header).
  const own = `${ctx.protocol}://${ctx.host}`;
  if (origin !== '' && origin !== 'null' && origin !== own) {
    throw errors.csrfTokenInvalid('The request came from another site', '_csrf');
  }
  if (origin === 'null') throw errors.csrfTokenInvalid('The request came from an opaque origin', '_csrf');
  const site = ctx.get('Sec-Fetch-Site');
  if (site !== '' && site !== 'same-origin' && site !== 'none') throw errors.csrfTokenInvalid('The request came from another site', '_csrf');
}

export type FormBody = Record<string, string | string[]>;

/**
 * Reads an application/x-www-form-urlencoded body into flat names; repeated names become arrays.
 * Hand-written on purpose (@koa/bodyparser's qs nests dotted names): docs/architecture.md.
 */
export async function readForm(ctx: AppContext): Promise<FormBody> {
  if (!['POST', 'PUT', 'PATCH', 'DELETE'].includes(ctx.method)) return {};
  const declared = ctx.get('Content-Length');
  if (declared !== '' && Number(declared) > FORM_LIMIT_BYTES) throw errors.bodyTooLarge(`Form bodies are limited to ${FORM_LIMIT_BYTES} bytes`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    size += (chunk as Buffer).length;
    if (size > FORM_LIMIT_BYTES) throw errors.bodyTooLarge(`Form bodies are limited to ${FORM_LIMIT_BYTES} bytes`);
    chunks.push(chunk as Buffer);
  }
  const raw = Buffer.concat(chunks).toString('utf8');
  if (raw === '') return {};
  const type = ctx.get('Content-Type').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') throw errors.unsupportedMediaType('Dashboard forms are sent as application/x-www-form-urlencoded');
  const out: FormBody = {};
  for (const [k, v] of new URLSearchParams(raw)) {
    const prev = out[k];
    out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return out;
}

export function field(form: FormBody, name: string): string {
  const v = form[name];
  return Array.isArray(v) ? (v[0] ?? '') : (v ?? '');
}

export function fields(form: FormBody, name: string): string[] {
  const v = form[name];
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}

/** The named query parameters given once and non-empty (a list page's filters and cursors). */
export function queryParams<K extends string>(ctx: AppContext, names: readonly K[]): Partial<Record<K, string>> {
  const out: Partial<Record<K, string>> = {};
  for (const n of names) {
    const v = ctx.query[n];
    if (typeof v === 'string' && v !== '') out[n] = v;
  }
  return out;
}

/** A local path to go back to after signing in (never another origin). */
export function safeNext(raw: unknown): string {
  if (typeof raw !== 'string' || !raw.startsWith('/dashboard') || raw.startsWith('//') || /[\\\r\n]/.test(raw) || raw.length > 500) return '/dashboard';
  return raw;
}
