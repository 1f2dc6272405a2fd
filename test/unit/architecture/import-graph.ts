// The project's import graph, read with the TypeScript parser (every `import … from` and
// `export … from`, with whether it is type-only), and the layering rules of
// docs/architecture.md checked against it. Pure: the rules take a graph, so a test can hand
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

const SOURCE_DIRS = ['src', 'api', 'workflows', 'activities', 'bench', 'test'];

function tsFiles(root: string, dir: string): string[] {
  const abs = path.join(root, dir);
  if (!existsSync(abs)) return [];
  return readdirSync(abs, { withFileTypes: true }).flatMap((e) => {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'generated' || e.name === 'node_modules' ? [] : tsFiles(root, rel);
    return e.name.endsWith('.ts') ? [rel] : [];
  });
}

function resolve(root: string, from: string, spec: string): string {
  if (!spec.startsWith('.')) return spec;
  const base = path.relative(root, path.resolve(root, path.dirname(from), spec));
  if (existsSync(path.join(root, `${base}.ts`))) return `${base}.ts`;
  if (existsSync(path.join(root, base, 'index.ts'))) return path.join(base, 'index.ts');
  return base;
}

export function importsOf(root: string, file: string, text: string): ImportEdge[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, false);
  const edges: ImportEdge[] = [];
  source.forEachChild((node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      edges.push({ to: resolve(root, file, node.moduleSpecifier.text), typeOnly: Boolean(node.importClause?.isTypeOnly) });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      edges.push({ to: resolve(root, file, node.moduleSpecifier.text), typeOnly: node.isTypeOnly });
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference) && ts.isStringLiteral(node.moduleReference.expression)) {
      edges.push({ to: resolve(root, file, node.moduleReference.expression.text), typeOnly: false });
    }
  });
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

/** Composition roots: they wire every layer together, so they may import any of them. */
export const isCompositionRoot = (p: string) => under('src/bin', 'src/runtime')(p) || p === 'src/worker.ts';

/** Below the domain: they never import it (nor anything above it). */
const LOWER = [
  'src/objects',
  'src/billing',
  'src/db',
  'src/gateways',
  'src/contracts',
  'src/events',
  'src/temporal',
  'src/validation',
  'src/crypto',
  'src/metering',
  'src/webhooks',
];

export interface Rule {
  name: string;
  /** The files the rule is about. */
  from: (file: string) => boolean;
  /** True when `file` may not import `edge`. */
  forbids: (edge: ImportEdge, file: string) => boolean;
}

export const RULES: Rule[] = [
  {
    name: 'nothing in src/ imports api/, activities/, workflows/, bench/ or test/ (composition roots excepted)',
    from: (f) => f.startsWith('src/') && !isCompositionRoot(f),
    forbids: (e) => under('api', 'activities', 'workflows', 'bench', 'test')(e.to),
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

export function layeringViolations(graph: ImportGraph, rules: Rule[] = RULES): Violation[] {
  const out: Violation[] = [];
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
