// ESLint (flat config) with typescript-eslint's type-aware rules. Run by `npm test` (npm run lint).
// The set is deliberately small: promises that nobody awaits or handles, and code nobody uses.
// Layering (which folder may import which) is checked by test/unit/architecture/layering.test.ts.
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'src/generated/**',
      'clients/typescript/schema.d.ts',
      'clients/typescript/dist/**',
      'bin/**',
      'scripts/**',
      '.data*/**',
      'prisma.config.ts',
      'eslint.config.mjs',
    ],
  },
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      '@typescript-eslint/no-unused-expressions': 'error',
      'no-unreachable': 'error',
    },
  },
  // Function length (docs/architecture.md "Function length"): at most 150 lines (blank lines and
  // comments not counted) in boot/, src/, api/, workflows/ and activities/, at most 100 in src/domain/.
  // Page templates are exempt: a page is one function returning its markup.
  {
    files: ['boot/**/*.ts', 'src/**/*.ts', 'src/**/*.tsx', 'api/**/*.ts', 'api/**/*.tsx', 'workflows/**/*.ts', 'activities/**/*.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 150, skipBlankLines: true, skipComments: true }] },
  },
  {
    files: ['src/domain/**/*.ts', 'src/domain/**/*.tsx'],
    rules: { 'max-lines-per-function': ['error', { max: 100, skipBlankLines: true, skipComments: true }] },
  },
  {
    // Page templates: the dashboard's pages and views, the checkout's and the portal's HTML.
    files: ['api/dashboard/pages/*.tsx', 'api/dashboard/views/*.tsx', 'api/checkout/html.ts', 'api/portal/html.ts', 'src/documents/render-html.ts', 'api/docs/errors-page.ts'],
    rules: { 'max-lines-per-function': 'off' },
  },
);
