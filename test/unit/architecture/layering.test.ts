// The layering of docs/architecture.md, checked on the real import graph: no import runs from a
// lower layer up to a higher one, workflows import only what is deterministic, and no import
// circle exists. The rules are first shown to catch planted violations, so a rule that cannot
// fail would be noticed.
import assert from 'node:assert/strict';
import path from 'node:path';
import { importCycles, importsOf, LAYERED_DIRS, layerOf, layeringViolations, readImportGraph, topLevelSourceDirs, unlistedSourceDirs, type ImportGraph } from './import-graph';

const root = path.resolve(__dirname, '..', '..', '..', '..');

/** The real graph plus one file with the given source (as if it were in the repository). */
function withPlanted(graph: ImportGraph, file: string, source: string): ImportGraph {
  const planted = new Map(graph);
  planted.set(file, importsOf(root, file, source));
  return planted;
}

describe('layering', () => {
  const graph = readImportGraph(root);

  it('reads the whole project', () => {
    assert.ok(graph.size > 300, `${graph.size} files`);
    assert.ok(
      graph.get('boot/api.ts')?.some((e) => e.to === 'src/temporal/workflow-clients.ts'),
      'boot/api.ts imports are resolved to files',
    );
  });

  describe('each rule catches a planted violation', () => {
    const planted: Array<[string, string, string]> = [
      ['src/domain/customers/planted.ts', "import { presentCustomer } from '../../../api/routes/customers/presenter';", 'nothing in src/ imports'],
      ['workflows/planted.ts', "import { createDb } from '../src/db/client';", 'workflows import only'],
      ['workflows/planted.ts', "import { createSubscriptionActivities } from '../activities/subscriptions';", 'workflows import only'],
      ['workflows/planted.ts', "import { readFileSync } from 'node:fs';", 'workflows import only'],
      ['src/billing/planted.ts', "import { errors } from '../errors';", 'src/billing imports nothing'],
      ['src/contracts/planted.ts', "import { workflowIds } from '../temporal/workflow-ids';", 'src/contracts imports only'],
      ['src/objects/planted.ts', "import { findInvoice } from '../domain/invoices/find-invoices';", 'src/objects'],
      ['src/events/planted.ts', "import { createCustomer } from '../domain/customers/create-customer';", 'layers below the domain'],
      ['src/domain/planted.ts', "import { Client } from '@temporalio/client';", 'the domain does not import'],
      // The wider guard: .tsx files, dynamic imports, require, api/ → Temporal, composition roots.
      ['src/domain/customers/planted.tsx', "import { customersRoutes } from '../../../api/routes/customers/router';", 'nothing in src/ imports'],
      ['api/dashboard/pages/planted.tsx', "import { Client } from '@temporalio/client';", 'api/ does not import src/temporal'],
      ['api/routes/planted.ts', "import { createWorkflowClients } from '../../src/temporal/workflow-clients';", 'api/ does not import src/temporal'],
      ['api/routes/planted.ts', "export async function f() { return (await import('@temporalio/client')).Connection; }", 'api/ does not import src/temporal'],
      ['src/domain/planted.ts', "export function f() { return require('../../api/app'); }", 'nothing in src/ imports'],
      ['src/domain/planted.ts', "export async function f() { return import('../../boot/runtime/temporal'); }", 'no layer imports a composition root'],
      // The composition roots live in boot/, above every layer: no layer imports them.
      ['api/routes/planted.ts', "import { listen } from '../../boot/runtime/http';", 'no layer imports a composition root'],
      ['activities/planted.ts', "import type { WorkerHandle } from '../boot/runtime/worker';", 'no layer imports a composition root'],
      ['workflows/planted.ts', "import { fail } from '../boot/common';", 'no layer imports a composition root'],
      ['src/config.ts', "import { prepareDatabase } from '../boot/runtime/database';", 'nothing in src/ imports boot/'],
      ['src/temporal/planted.ts', "export const w = require('../../boot/runtime/worker');", 'no layer imports a composition root'],
      ['src/db/planted.ts', "import type { Config } from '../config';\nimport { listCustomers } from '../domain/customers/find-customers';", 'a layer imports only its own layer'],
      ['src/config.ts', "import { createDb } from './db/client';", 'a layer imports only its own layer'],
      ['api/routes/planted.ts', "import { createActivities } from '../../activities';", 'the edges api/ and activities/ do not import each other'],
      ['src/planted-folder/file.ts', '', 'every file of'],
      ['activities/planted.ts', "import { Mutex } from '../workflows/subscription/mutex';", 'activities/ imports no workflow code'],
    ];
    for (const [file, source, rule] of planted) {
      it(`${rule}: ${source}`, () => {
        const found = layeringViolations(withPlanted(graph, file, source)).filter((v) => v.file === file);
        assert.ok(
          found.some((v) => v.rule.startsWith(rule)),
          `not caught: ${JSON.stringify(found)}`,
        );
      });
    }

    it('a type-only import of activities from a workflow is allowed', () => {
      const g = withPlanted(graph, 'workflows/planted.ts', "import type { SubscriptionActivities } from '../activities/subscriptions';");
      assert.deepEqual(
        layeringViolations(g).filter((v) => v.file === 'workflows/planted.ts'),
        [],
      );
    });

    it("the type-only imports of import('…').Type are read", () => {
      const edges = importsOf(root, 'api/planted.ts', "export type T = import('../boot/runtime/temporal').X;");
      assert.deepEqual(edges, [{ to: 'boot/runtime/temporal.ts', typeOnly: true }]);
    });

    it('an import circle through type-only imports in .tsx files', () => {
      const g = withPlanted(graph, 'api/dashboard/pages/planted.tsx', "import type { Planted } from '../views/planted-view.tsx';");
      const g2 = withPlanted(g, 'api/dashboard/views/planted-view.tsx', "import type { Page } from '../pages/planted.tsx';");
      assert.ok(importCycles(g2).some((c) => c.includes('api/dashboard/pages/planted.tsx') && c.includes('api/dashboard/views/planted-view.tsx')));
    });

    it('an import circle, also through type-only imports', () => {
      const g = withPlanted(graph, 'src/ids.ts', "import type { Config } from './config';");
      const g2 = withPlanted(g, 'src/config.ts', "import type { newId } from './ids';");
      assert.ok(importCycles(g2).some((c) => c.includes('src/ids.ts') && c.includes('src/config.ts')));
    });
  });

  it('gives every top-level folder with TypeScript a layer, or lists it as outside the layers', () => {
    const dirs = topLevelSourceDirs(root);
    assert.ok(dirs.includes('boot') && dirs.includes('src') && dirs.includes('test'), dirs.join(' '));
    assert.deepEqual(unlistedSourceDirs(dirs), []);
    // Planted: a new top-level folder of code, in no layer, fails.
    assert.deepEqual(unlistedSourceDirs([...dirs, 'lib']), ['lib']);
    assert.ok(graph.has('boot/start.ts') && layerOf('boot/start.ts') === 'composition root', 'boot/ is read and is the composition roots');
    assert.ok(graph.has('boot/runtime/worker.ts') && layerOf('boot/runtime/worker.ts') === 'composition root');
    assert.equal(layerOf('api/app.ts'), 'edge', 'createApp is handed its workflow clients: it builds nothing');
  });

  it('reads .tsx files and gives every file of boot/, src/, api/, workflows/ and activities/ a layer', () => {
    assert.ok([...graph.keys()].filter((f) => f.endsWith('.tsx')).length >= 15, 'the dashboard pages are read');
    assert.ok(
      graph.get('api/dashboard/index.tsx')?.some((e) => e.to === 'api/dashboard/pages/billing.tsx'),
      '.tsx imports resolve to files',
    );
    const files = [...graph.keys()].filter((f) => LAYERED_DIRS.some((d) => f.startsWith(`${d}/`)));
    assert.deepEqual(
      files.filter((f) => layerOf(f) === undefined),
      [],
    );
  });

  it('no import runs against the layering', () => {
    const violations = layeringViolations(graph);
    assert.deepEqual(violations, [], violations.map((v) => `${v.file} imports ${v.imports}: ${v.rule}`).join('\n'));
  });

  it('no import circle', () => {
    assert.deepEqual(importCycles(graph), []);
  });
});
