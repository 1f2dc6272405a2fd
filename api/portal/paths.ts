// Paths of the customer portal pages. A portal link's URL carries a bearer token, so the access
// log must never print it: loggablePath() replaces it before the path is logged.
export const PORTAL_OPEN_PREFIX = '/portal/open/';

export function loggablePath(path: string): string {
  return path.startsWith(PORTAL_OPEN_PREFIX) ? `${PORTAL_OPEN_PREFIX}[token]` : path;
}
