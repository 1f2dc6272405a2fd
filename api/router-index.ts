// Indexed route matching for the application router. @koa/router's `match` tests the request path
// against the regular expression of every registered layer, in order (about 150 of them), on every
// request. indexRoutes() gives the router a `match` that tests only the layers that can match:
// those whose path begins with the request's first two path segments (compared case-insensitively,
// as the routes are), and those whose path is not literal that far (`/checkout/:id`, a RegExp).
// The index is only a pre-filter: the layers it keeps are tested with their own regular
// expressions in the router's order, so the result is exactly the router's own (same matched
// layers, same order; test/unit/router-index.test.ts compares the two over every route). It is
// rebuilt when layers are added after it was built.
import type Router from '@koa/router';

/** The parts of a @koa/router Layer the index reads. */
interface LayerLike {
  path: string | RegExp;
  methods: string[];
  opts: { pathAsRegExp?: boolean; prefix?: string };
  match(path: string): boolean;
}

interface MatchResult<L> {
  path: L[];
  pathAndMethod: L[];
  route: boolean;
}

/** How many leading path segments are indexed (`/v1/customers` → 2). */
const DEPTH = 2;

/** The layer's literal leading segments (lower case), at most DEPTH; fewer when a segment is not literal. */
export function literalPrefix(layer: LayerLike): string[] {
  if (typeof layer.path !== 'string' || layer.opts.pathAsRegExp) return [];
  const segments = layer.path.split('/');
  if (segments[0] !== '') return [];
  const out: string[] = [];
  for (const s of segments.slice(1, 1 + DEPTH)) {
    // Parameters, wildcards, optional groups and escapes are not literal (path-to-regexp syntax).
    if (s === '' || /[:*{}()\\?+[\]]/.test(s)) break;
    out.push(s.toLowerCase());
  }
  return out;
}

/** The request path's first DEPTH segments, lower case ('' for a missing one). */
function requestKey(path: string): [string, string] {
  const a = path.indexOf('/', 1);
  if (a < 0) return [path.slice(1).toLowerCase(), ''];
  const b = path.indexOf('/', a + 1);
  return [path.slice(1, a).toLowerCase(), path.slice(a + 1, b < 0 ? undefined : b).toLowerCase()];
}

interface Index<L> {
  size: number;
  /** Layers for a known first segment and a known second one. */
  both: Map<string, L[]>;
  /** Layers for a known first segment and any other second one. */
  first: Map<string, L[]>;
  /** Layers for any other path (those not literal at the first segment). */
  rest: L[];
}

function buildIndex<L extends LayerLike>(stack: L[]): Index<L> {
  const prefixes = stack.map((l) => literalPrefix(l));
  const firsts = new Set<string>();
  const pairs = new Set<string>();
  for (const p of prefixes) {
    if (p.length >= 1) firsts.add(p[0]!);
    if (p.length >= 2) pairs.add(`${p[0]}/${p[1]}`);
  }
  // A layer can match a path with segments (s1, s2) unless one of its literal segments differs.
  const select = (s1: string | null, s2: string | null) =>
    stack.filter((_, i) => {
      const p = prefixes[i]!;
      if (p.length >= 1 && p[0] !== s1) return false;
      if (p.length >= 2 && p[1] !== s2) return false;
      return true;
    });
  const both = new Map<string, L[]>();
  for (const pair of pairs) {
    const [s1, s2] = pair.split('/') as [string, string];
    both.set(pair, select(s1, s2));
  }
  const first = new Map<string, L[]>();
  for (const s1 of firsts) first.set(s1, select(s1, null));
  return { size: stack.length, both, first, rest: select(null, null) };
}

/** Gives `router` an indexed `match` (same results as @koa/router's, fewer regular expressions per request). */
export function indexRoutes(router: Router<any, any>): void {
  const r = router as unknown as { stack: LayerLike[]; match: (path: string, method: string) => MatchResult<LayerLike> };
  let index = buildIndex(r.stack);
  r.match = (path: string, method: string): MatchResult<LayerLike> => {
    if (index.size !== r.stack.length) index = buildIndex(r.stack);
    const [s1, s2] = requestKey(path);
    const candidates = index.both.get(`${s1}/${s2}`) ?? index.first.get(s1) ?? index.rest;
    const result: MatchResult<LayerLike> = { path: [], pathAndMethod: [], route: false };
    const normalizedMethod = method.toUpperCase();
    // The loop of @koa/router's Router#match, over the candidates only.
    for (const layer of candidates) {
      if (!layer.match(path)) continue;
      result.path.push(layer);
      if (layer.methods.length === 0 || layer.methods.includes(normalizedMethod)) {
        result.pathAndMethod.push(layer);
        if (layer.methods.length > 0) result.route = true;
      }
    }
    return result;
  };
}
