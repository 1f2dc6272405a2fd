// The lint gate of the public OpenAPI document (issue 33 item 2, docs/openapi.md "Linting"): an
// independent linter, @redocly/cli with its `recommended` rules (the same command as
// `npm run lint:openapi`), must report no error and no warning on the document the service builds
// now. Its bin runs offline (telemetry and the update check off). A planted document with known
// problems shows the gate really fails.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { AREAS } from '../../api/areas';
import { buildOpenApiDocument } from '../../api/openapi/document';

const REDOCLY = path.join(path.dirname(require.resolve('@redocly/cli/package.json')), 'bin', 'cli.js');

interface LintReport {
  totals: { errors: number; warnings: number; ignored: number };
  problems: Array<{ ruleId: string; severity: string; message: string; location: Array<{ pointer: string }> }>;
}

/** Lints a document with redocly's recommended rules; the JSON report. */
async function lint(doc: unknown): Promise<LintReport> {
  const dir = mkdtempSync(path.join(tmpdir(), 'openapi-lint-'));
  try {
    const file = path.join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(doc));
    const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };
    // redocly exits 1 when it finds an error: its report is still on stdout.
    const out = await promisify(execFile)(process.execPath, [REDOCLY, 'lint', file, '--extends=recommended', '--format=json'], {
      env,
      cwd: dir,
      maxBuffer: 64 * 1024 * 1024,
    }).catch((err: { stdout?: string; stderr?: string }) => {
      if (err.stdout) return { stdout: err.stdout, stderr: err.stderr ?? '' };
      throw err;
    });
    return JSON.parse(out.stdout) as LintReport;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const listed = (r: LintReport) => r.problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer ?? '?'}`).join('\n');

describe('OpenAPI lint gate (@redocly/cli recommended rules)', function () {
  this.timeout(120_000);

  it('reports no error and no warning on the public document', async () => {
    const report = await lint(buildOpenApiDocument(AREAS));
    assert.deepEqual({ errors: report.totals.errors, warnings: report.totals.warnings }, { errors: 0, warnings: 0 }, listed(report));
  });

  it('fails on a planted document: an operation without a 4xx answer and an unused component', async () => {
    const doc = structuredClone(buildOpenApiDocument(AREAS)) as unknown as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
      components: { schemas: Record<string, unknown> };
    };
    const op = doc.paths['/v1/customers']!.get!;
    op.responses = { 200: op.responses['200'] };
    doc.components.schemas.PlantedUnused = { type: 'object' };
    const report = await lint(doc);
    const rules = report.problems.map((p) => p.ruleId);
    assert.ok(rules.includes('operation-4xx-response'), listed(report));
    assert.ok(rules.includes('no-unused-components'), listed(report));
    assert.ok(report.totals.warnings >= 2);
  });
});
