// The subscription command switch is exhaustive (src/domain/subscriptions/apply-command.ts): a
// command kind without a `case` does not compile. Type-level test: the real file, with one `case`
// removed in memory, is type-checked with the project's compiler options and must fail at the
// `never` check (the file as it is compiles: the build type-checks it).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const FILE = path.join(ROOT, 'src', 'domain', 'subscriptions', 'apply-command.ts');

function diagnosticsOf(source: string): string[] {
  const config = ts.getParsedCommandLineOfConfigFile(path.join(ROOT, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
  assert.ok(config, 'tsconfig.json parses');
  const options: ts.CompilerOptions = { ...config.options, noEmit: true, incremental: false, tsBuildInfoFile: undefined };
  const host = ts.createCompilerHost(options);
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (name, lang, onError, create) => (path.resolve(name) === FILE ? ts.createSourceFile(name, source, lang) : read(name, lang, onError, create));
  const program = ts.createProgram([FILE], options, host);
  const file = program.getSourceFile(FILE)!;
  return [...program.getSemanticDiagnostics(file), ...program.getSyntacticDiagnostics(file)].map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

describe('subscription command switch', function () {
  this.timeout(180_000);
  const original = readFileSync(FILE, 'utf8');

  it('does not compile with a command kind left without its case', () => {
    const dropped = "    case 'void_invoice':\n      return voidSubscriptionInvoice(ctx, cmd.invoiceId);\n";
    assert.ok(original.includes(dropped), 'the fixture finds the case it removes');
    const errors = diagnosticsOf(original.replace(dropped, ''));
    assert.ok(
      errors.some((e) => /not assignable to parameter of type 'never'/.test(e)),
      `expected the never check to fail, got: ${errors.join(' | ') || 'no error'}`,
    );
  });
});
