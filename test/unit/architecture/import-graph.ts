// The project's import graph, read with the TypeScript parser from every `.ts` and `.tsx` file
// (static `import … from` and `export … from`, `import x = require()`, dynamic `import()`,
// `require()` calls and `import('…').Type` type references, with whether each is type-only), and
// the layering of docs/architecture.md checked against it: one map from folder to layer
// (LAYERS), "may import" derived from the layers' order, plus the few rules of particular folders. Pure: the rules take a graph, so a test can hand
// them a graph with a planted violation and see them fail.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export interface ImportEdge {
  /** Repository-relative path of the imported file (`src/db/client.ts`), or the package name. */
  to: string;
  typeOnly: boolean;
}

/** Repository-relative file path → its imports. */
export type ImportGraph = Map<string, ImportEdge[]>;

const SOURCE_DIRS = ['boot', 'src', 'api', 'workflows', 'activities', 'bench', 'test'];

function tsFiles(root: string, dir: string): string[] {
  const abs = path.join(root, dir);
  if (!existsSync(abs)) return [];
  return readdirSync(abs, { withFileTypes: true }).flatMap((e) => {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'generated' || e.name === 'node_modules' ? [] : tsFiles(root, rel);
    return /\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts') ? [rel] : [];
  });
}

function resolve(root: string, from: string, spec: string): string {
  if (!spec.startsWith('.')) return spec;
  const base = path.relative(root, path.resolve(root, path.dirname(from), spec));
  for (const candidate of [`${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')]) {
    if (existsSync(path.join(root, candidate))) return candidate;
  }
  return base;
}

export function importsOf(root: string, file: string, text: string): ImportEdge[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const edges: ImportEdge[] = [];
  const add = (spec: ts.Expression | undefined, typeOnly: boolean) => {
    if (spec && (ts.isStringLiteral(spec) || ts.isNoSubstitutionTemplateLiteral(spec))) edges.push({ to: resolve(root, file, spec.text), typeOnly });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      // `import { type A, type B } from` is as type-only as `import type { A, B } from`.
      const allTypes =
        clause !== undefined &&
        !clause.name &&
        clause.namedBindings !== undefined &&
        ts.isNamedImports(clause.namedBindings) &&
        clause.namedBindings.elements.length > 0 &&
        clause.namedBindings.elements.every((e) => e.isTypeOnly);
      add(node.moduleSpecifier, Boolean(clause?.isTypeOnly) || allTypes);
    } else if (ts.isExportDeclaration(node)) add(node.moduleSpecifier, node.isTypeOnly);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) add(node.moduleReference.expression, node.isTypeOnly);
    else if (ts.isCallExpression(node) && (node.expression.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(node.expression) && node.expression.text === 'require'))) {
      add(node.arguments[0], false);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) add(node.argument.literal as ts.Expression, true);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return edges;
}

export function readImportGraph(root: string): ImportGraph {
  const graph: ImportGraph = new Map();
  for (const file of SOURCE_DIRS.flatMap((d) => tsFiles(root, d))) graph.set(file, importsOf(root, file, readFileSync(path.join(root, file), 'utf8')));
  return graph;
}

const under =
  (...prefixes: string[]) =>
  (p: string) =>
    prefixes.some((x) => p === x || p.startsWith(`${x}/`));
const isPackage = (p: string) => !p.includes('/') || p.startsWith('@') || p.startsWith('node:');

/** The layers of docs/architecture.md, from the top down: a layer may import its own and those below it. */
export const LAYER_ORDER = ['composition root', 'edge', 'workflow', 'domain', 'infrastructure', 'public objects', 'foundation'] as const;
export type Layer = (typeof LAYER_ORDER)[number];

/**
 * Every folder (or file) of boot/, src/, api/, workflows/ and activities/ and its layer: the table
 * of docs/architecture.md. The most specific entry wins; a file that no entry covers fails the test.
 */
export const LAYERS: Record<string, Layer> = {
  // The composition roots, all in one folder at the top: the processes' entry points and what
  // they build and wire (boot/runtime/). Nothing else lives there, and nothing below imports it.
  boot: 'composition root',
  api: 'edge',
  activities: 'edge',
  workflows: 'workflow',
  'src/domain': 'domain',
  'src/db': 'infrastructure',
  'src/generated': 'infrastructure',
  'src/gateways': 'infrastructure',
  'src/events': 'infrastructure',
  'src/temporal': 'infrastructure',
  'src/webhooks': 'infrastructure',
  'src/metering': 'infrastructure',
  'src/documents': 'infrastructure',
  'src/observability': 'infrastructure',
  'src/objects': 'public objects',
  'src/contracts': 'foundation',
  'src/billing': 'foundation',
  'src/validation': 'foundation',
  'src/crypto': 'foundation',
  'src/errors.ts': 'foundation',
  'src/ids.ts': 'foundation',
  'src/config.ts': 'foundation',
};

/** The folders whose every file must have a layer. */
export const LAYERED_DIRS = ['boot', 'src', 'api', 'workflows', 'activities'];

/** Top-level folders with TypeScript that is no layer's: tests, benchmarks, the generated client. */
export const UNLAYERED_DIRS = ['test', 'bench', 'clients', 'prisma', 'scripts'];

/** The top-level folders of the repository that hold `.ts`/`.tsx` files. */
export function topLevelSourceDirs(root: string): string[] {
  return readdirSync(root, { withFileTypes: true })
    .filter((e) => e.isDirectory() && !e.name.startsWith('.') && e.name !== 'node_modules' && e.name !== 'dist')
    .map((e) => e.name)
    .filter((d) => tsFiles(root, d).length > 0);
}

/** Of those folders, the ones neither layered nor listed as outside the layers (a new folder fails). */
export const unlistedSourceDirs = (dirs: string[]): string[] => dirs.filter((d) => !LAYERED_DIRS.includes(d) && !UNLAYERED_DIRS.includes(d));

/** The layer of a repository path (a file or a package: packages have none). */
export function layerOf(p: string): Layer | undefined {
  let best: string | undefined;
  for (const prefix of Object.keys(LAYERS)) if (under(prefix)(p) && (best === undefined || prefix.length > best.length)) best = prefix;
  return best === undefined ? undefined : LAYERS[best];
}

const rank = (l: Layer) => LAYER_ORDER.indexOf(l);

/** Composition roots: they wire every layer together, so they may import any of them. */
export const isCompositionRoot = (p: string) => layerOf(p) === 'composition root';

/** Below the domain: they never import it (nor anything above it). */
const LOWER = Object.entries(LAYERS)
  .filter(([, l]) => rank(l) > rank('domain'))
  .map(([p]) => p);

export interface Rule {
  name: string;
  /** The files the rule is about. */
  from: (file: string) => boolean;
  /** True when `file` may not import `edge`. */
  forbids: (edge: ImportEdge, file: string) => boolean;
}

export const RULES: Rule[] = [
  {
    name: 'a layer imports only its own layer and the layers below it (docs/architecture.md)',
    from: (f) => layerOf(f) !== undefined && layerOf(f) !== 'composition root',
    forbids: (e, f) => {
      const to = layerOf(e.to);
      if (to === undefined || to === 'composition root' || rank(to) >= rank(layerOf(f)!)) return false;
      // The generated row types are every layer's vocabulary (types only), and a workflow names its
      // activities' types (docs/architecture.md).
      if (e.typeOnly && under('src/generated')(e.to)) return false;
      return !(e.typeOnly && under('workflows')(f) && under('activities')(e.to));
    },
  },
  {
    name: 'no layer imports a composition root',
    from: (f) => layerOf(f) !== undefined && !isCompositionRoot(f),
    forbids: (e) => isCompositionRoot(e.to),
  },
  {
    name: 'the edges api/ and activities/ do not import each other',
    from: (f) => layerOf(f) === 'edge',
    forbids: (e, f) => layerOf(e.to) === 'edge' && f.split('/')[0] !== e.to.split('/')[0],
  },
  {
    name: 'api/ does not import src/temporal or @temporalio/* (types of its deps excepted)',
    from: under('api'),
    forbids: (e) => !e.typeOnly && (under('src/temporal')(e.to) || e.to.startsWith('@temporalio/')),
  },
  {
    name: 'nothing in src/ imports boot/, api/, activities/, workflows/, bench/ or test/',
    from: under('src'),
    forbids: (e) => under('boot', 'api', 'activities', 'workflows', 'bench', 'test')(e.to),
  },
  {
    name: 'workflows import only @temporalio/workflow and /common, src/contracts, src/billing, other workflow code, and activities as types',
    from: under('workflows'),
    forbids: (e) => {
      if (isPackage(e.to)) return e.to !== '@temporalio/workflow' && e.to !== '@temporalio/common';
      if (under('workflows', 'src/contracts', 'src/billing')(e.to)) return false;
      return !(e.typeOnly && under('activities')(e.to));
    },
  },
  {
    // A pure rule both the workflow and its activity read (the subscription schedule) lives below
    // both, in src/contracts/ or src/billing/, never in workflows/.
    name: 'activities/ imports no workflow code (what both need lives in src/contracts/ or src/billing/)',
    from: under('activities'),
    forbids: (e) => under('workflows')(e.to),
  },
  {
    name: 'src/billing imports nothing but itself',
    from: under('src/billing'),
    forbids: (e) => !under('src/billing')(e.to),
  },
  {
    name: 'src/contracts imports only itself and @temporalio/common',
    from: under('src/contracts'),
    forbids: (e) => !under('src/contracts')(e.to) && e.to !== '@temporalio/common',
  },
  {
    name: 'src/objects (the public objects) imports only itself, the pure foundations (billing, contracts) and the generated database types',
    from: under('src/objects'),
    forbids: (e) => !under('src/objects', 'src/billing', 'src/contracts')(e.to) && !(e.typeOnly && under('src/generated')(e.to)),
  },
  {
    name: 'layers below the domain never import it',
    from: under(...LOWER),
    forbids: (e) => under('src/domain')(e.to),
  },
  {
    name: 'the domain does not import the Temporal client, activity context or Koa (they are injected or stay at the edge)',
    from: under('src/domain'),
    forbids: (e) => ['@temporalio/client', '@temporalio/activity', '@temporalio/worker', 'koa', '@koa/router'].includes(e.to),
  },
];

export interface Violation {
  rule: string;
  file: string;
  imports: string;
}

/** Files of LAYERED_DIRS that no entry of LAYERS covers. */
export function unassignedFiles(graph: ImportGraph): string[] {
  return [...graph.keys()].filter((f) => under(...LAYERED_DIRS)(f) && !under('src/generated')(f) && layerOf(f) === undefined);
}

export function layeringViolations(graph: ImportGraph, rules: Rule[] = RULES): Violation[] {
  const out: Violation[] = unassignedFiles(graph).map((file) => ({ rule: 'every file of boot/, src/, api/, workflows/ and activities/ has a layer (LAYERS)', file, imports: '' }));
  for (const [file, edges] of graph) {
    for (const rule of rules) {
      if (!rule.from(file)) continue;
      for (const e of edges) if (rule.forbids(e, file)) out.push({ rule: rule.name, file, imports: e.to });
    }
  }
  return out;
}

/** Import circles among the project's own files (type-only imports included), each as its files. */
export function importCycles(graph: ImportGraph, include: (file: string) => boolean = (f) => !under('test', 'bench')(f)): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  let next = 0;
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next += 1;
    stack.push(v);
    onStack.add(v);
    for (const { to } of graph.get(v) ?? []) {
      if (!graph.has(to) || !include(to)) continue;
      if (!index.has(to)) {
        visit(to);
        low.set(v, Math.min(low.get(v)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(v, Math.min(low.get(v)!, index.get(to)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      const selfLoop = (graph.get(v) ?? []).some((e) => e.to === v);
      if (scc.length > 1 || selfLoop) cycles.push(scc.sort());
    }
  };
  for (const file of graph.keys()) if (include(file) && !index.has(file)) visit(file);
  return cycles;
}
