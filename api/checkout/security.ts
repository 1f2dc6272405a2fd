// Response headers of the checkout pages and assets. The CSP allows nothing but this origin's
// own script, style and JSON endpoints: no third-party assets, no inline script or style, no
// form submissions (card data is sent by the script as JSON), no <base>, no plugins.
//  - hosted page: frame-ancestors 'none' (never framed: clickjacking);
//  - embedded page: frame-ancestors = the embedding origin the mounting script declared; the
//    page then refuses to work unless the session's own origin is that same origin.
import type { AppContext } from '../context';

export function checkoutCsp(frameAncestors: string): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "form-action 'none'",
    "base-uri 'none'",
    "object-src 'none'",
    `frame-ancestors ${frameAncestors}`,
  ].join('; ');
}

export function setPageHeaders(ctx: AppContext, opts: { frameAncestors: string }): void {
  ctx.set('Content-Security-Policy', checkoutCsp(opts.frameAncestors));
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Cross-Origin-Opener-Policy', opts.frameAncestors === "'none'" ? 'same-origin' : 'unsafe-none');
  if (opts.frameAncestors === "'none'") ctx.set('X-Frame-Options', 'DENY');
  ctx.set('Permissions-Policy', 'camera=(), microphone=(), geolocation=()');
  ctx.type = 'text/html; charset=utf-8';
}

export function setAssetHeaders(ctx: AppContext, type: string, opts: { crossOrigin?: boolean } = {}): void {
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Cache-Control', 'public, max-age=300');
  ctx.set('Cross-Origin-Resource-Policy', opts.crossOrigin ? 'cross-origin' : 'same-origin');
  ctx.type = type;
}

/** JSON endpoints of the pages: never cached; same-origin callers only (checked in the router). */
export function setApiHeaders(ctx: AppContext): void {
  ctx.set('Cache-Control', 'no-store');
  ctx.set('X-Content-Type-Options', 'nosniff');
}
