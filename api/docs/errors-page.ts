// The service's error reference: GET /docs/errors, the page every error's `doc_url` points to
// (`/docs/errors#<code>`). Generated from the one list of codes in src/errors.ts, as is the table
// in docs/errors.md (errorCodesMarkdown; `node dist/api/docs/generate-errors-doc.js` rewrites it).
// English only, like the API reference page at /docs/api.
import escapeHtml from 'escape-html';
import { ERROR_DOC_PATH, ERROR_TYPES, errorCatalog, type ErrorType } from '../../src/errors';

export const ERRORS_PAGE_PATH = ERROR_DOC_PATH;

/** Markdown `code` spans to <code>, everything else escaped. */
const inline = (s: string) =>
  s
    .split(/(`[^`]+`)/)
    .map((part) => (part.startsWith('`') && part.endsWith('`') && part.length > 1 ? `<code>${escapeHtml(part.slice(1, -1))}</code>` : escapeHtml(part)))
    .join('');

const STYLE = `
body { font: 16px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1a1a1a; background: #fff; margin: 0; }
main { max-width: 64rem; margin: 0 auto; padding: 1.5rem 1rem 4rem; }
h1 { font-size: 1.75rem; margin: 0 0 .5rem; }
h2 { font-size: 1.25rem; margin: 2rem 0 .5rem; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; vertical-align: top; padding: .4rem .6rem; border-bottom: 1px solid #d0d0d0; }
thead th { border-bottom: 2px solid #555; }
td.status { font-variant-numeric: tabular-nums; }
code, pre { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: .9em; }
pre { background: #f4f4f4; padding: .75rem; overflow-x: auto; }
tr:target { background: #fff3c4; }
a { color: #0b57d0; }
.wrap { overflow-x: auto; }
`;

/** The error reference page, one row (and anchor) per code. */
export function errorsPageHtml(): string {
  const types = Object.entries(ERROR_TYPES) as Array<[ErrorType, string]>;
  const codes = errorCatalog();
  const example = JSON.stringify(
    {
      error: {
        type: 'invalid_request_error',
        code: 'validation_failed',
        message: 'mode is a required field',
        param: 'mode',
        doc_url: `${ERROR_DOC_PATH}#validation_failed`,
        request_id: 'req_5f0c…',
      },
    },
    null,
    2,
  );
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Errors — Billing service API reference</title>
<link rel="icon" href="data:,">
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>Errors</h1>
<p>Every error answers with the same envelope, and the <code>X-Request-Id</code> response header equals <code>error.request_id</code>. <code>param</code> is present when one request field, header or query parameter is at fault; <code>doc_url</code> links to the code's row on this page. Clients must ignore codes they do not know: new codes are added without a version change. See also the <a href="/docs/api">API reference</a>.</p>
<pre tabindex="0" aria-label="An error response">${escapeHtml(example)}</pre>
<h2 id="types">Types</h2>
<div class="wrap"><table>
<thead><tr><th scope="col">type</th><th scope="col">meaning</th></tr></thead>
<tbody>
${types.map(([type, meaning]) => `<tr id="type-${type}"><th scope="row"><code>${type}</code></th><td>${inline(meaning)}</td></tr>`).join('\n')}
</tbody>
</table></div>
<h2 id="codes">Codes</h2>
<div class="wrap"><table>
<thead><tr><th scope="col">code</th><th scope="col">HTTP status</th><th scope="col">type</th><th scope="col">when</th></tr></thead>
<tbody>
${codes
  .map(
    (e) =>
      `<tr id="${escapeHtml(e.code)}"><th scope="row"><a href="#${escapeHtml(e.code)}"><code>${escapeHtml(e.code)}</code></a></th><td class="status">${e.status}</td><td><a href="#type-${e.type}"><code>${e.type}</code></a></td><td>${inline(e.description)}</td></tr>`,
  )
  .join('\n')}
</tbody>
</table></div>
</main>
</body>
</html>
`;
}

/** The code table of docs/errors.md, generated from the same list. */
export function errorCodesMarkdown(): string {
  const rows = errorCatalog().map((e) => `| \`${e.code}\` | ${e.status} | ${e.description} |`);
  return ['| code | HTTP | when |', '|---|---|---|', ...rows].join('\n');
}

/** The types table of docs/errors.md. */
export function errorTypesMarkdown(): string {
  const rows = (Object.entries(ERROR_TYPES) as Array<[ErrorType, string]>).map(([type, meaning]) => `| \`${type}\` | ${meaning} |`);
  return ['| type | meaning |', '|---|---|', ...rows].join('\n');
}
