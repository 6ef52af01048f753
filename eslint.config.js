// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import local from './eslint-rules/no-import-cycle.js';

export default tseslint.config(
  { ignores: ['dist/**', 'docs/api/**', 'coverage/**', 'node_modules/**', '**/.data/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      'no-restricted-syntax': [
        'error',
        { selector: 'TSEnumDeclaration', message: 'Use a string-literal union.' },
      ],
    },
  },
  {
    // STYLE.md: no import cycles in the library, even through types (eslint-rules/).
    files: ['src/**/*.ts'],
    plugins: { local },
    rules: { 'local/no-import-cycle': 'error' },
  },
  {
    // Issue 16: no module-level mutable state outside named caches with a stated reason. A
    // module-level `let` or `var` is refused, and so is a `new Map()` / `new Set()` that is
    // neither typed read-only nor named `...Cache`. Keep state in one named object with a
    // comment saying why (src/core/users/new-id.ts, src/schema/fold-case.ts).
    files: ['src/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: 'TSEnumDeclaration', message: 'Use a string-literal union.' },
        {
          selector:
            ':matches(Program, Program > ExportNamedDeclaration) > VariableDeclaration[kind!="const"]',
          message:
            'No module-level mutable binding: keep module state in a named cache object with a stated reason.',
        },
        {
          selector:
            ':matches(Program, Program > ExportNamedDeclaration) > VariableDeclaration > VariableDeclarator[id.name!=/Cache$/]:not([id.typeAnnotation]) > NewExpression.init[callee.name=/^(Map|Set|WeakMap|WeakSet)$/]',
          message:
            'A module-level collection is read-only (type it ReadonlyMap / ReadonlySet) or a named cache (`...Cache`, with its reason).',
        },
      ],
    },
  },
  {
    // Adapters translate shapes only: they may reach the public entry and internal/, nothing else.
    files: ['src/adapters/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['../../*', '!../../index.js', '!../../internal', '!../../internal/*'],
              message:
                'Adapters import only the public entry (../../index.js) and ../../internal/.',
            },
          ],
        },
      ],
      'max-lines': ['error', { max: 60, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    // Pure engines never import the core, stores or adapters.
    files: ['src/schema/**/*.ts', 'src/filter/**/*.ts', 'src/patch/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['../core/*', '../stores/*', '../adapters/*', '../testing/*', 'node:*'],
              message:
                'schema/, filter/ and patch/ are pure leaves: no core, stores, adapters or I/O.',
            },
          ],
        },
      ],
    },
  },
);
