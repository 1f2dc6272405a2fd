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
);
