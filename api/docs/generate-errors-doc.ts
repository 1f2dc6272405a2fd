// Rewrites the generated tables of docs/errors.md from src/errors.ts (the one list of codes):
// `npm run build --silent && node dist/api/docs/generate-errors-doc.js`. test/unit/errors-doc.test.ts
// fails while the committed file differs from what this writes.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { errorCodesMarkdown, errorTypesMarkdown } from './errors-page';

export const ERRORS_DOC_FILE = path.resolve(__dirname, '..', '..', '..', 'docs', 'errors.md');

const BLOCKS: Record<string, () => string> = { 'error-types': errorTypesMarkdown, 'error-codes': errorCodesMarkdown };

/** docs/errors.md's text with every generated block replaced by what the code says now. */
export function generatedErrorsDoc(text: string): string {
  let out = text;
  for (const [name, render] of Object.entries(BLOCKS)) {
    const start = `<!-- generated:${name} (api/docs/generate-errors-doc.ts) -->`;
    const end = `<!-- /generated:${name} -->`;
    const from = out.indexOf(start);
    const to = out.indexOf(end);
    if (from < 0 || to < from) throw new Error(`docs/errors.md has no ${start} … ${end} block`);
    out = `${out.slice(0, from + start.length)}\n\n${render()}\n\n${out.slice(to)}`;
  }
  return out;
}

if (require.main === module) {
  writeFileSync(ERRORS_DOC_FILE, generatedErrorsDoc(readFileSync(ERRORS_DOC_FILE, 'utf8')));
  console.log(`wrote ${ERRORS_DOC_FILE}`);
}
