import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'coverage/', '.data/', 'uploads/', 'drizzle/', '.vercel/', 'public/', 'types/api.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'error',
    },
  },
  {
    // Each function loads what its import graph names, on every cold start: drizzle-orm's root and
    // pg-core indexes load about a hundred modules, the modules that define each name far fewer.
    files: ['api/**/*.ts', 'lib/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'drizzle-orm', message: "Import from the module that defines the name (drizzle-orm/sql/sql, drizzle-orm/sql/expressions/conditions, …).", allowTypeImports: true },
            { name: 'drizzle-orm/pg-core', message: 'Import from the module that defines the name (drizzle-orm/pg-core/table, drizzle-orm/pg-core/columns/text, …).', allowTypeImports: true },
          ],
        },
      ],
    },
  },
  {
    // Imports flow one way: api/ -> lib/<domain>/ -> lib/http, lib/db. A library that needs the
    // functions (the OpenAPI document) is handed their list by the function that uses it.
    files: ['lib/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: '^(\\.\\./)+api(/|$)', message: 'lib/ does not import api/: take what it needs as a parameter.' }] }],
      'no-restricted-syntax': [
        'error',
        { selector: 'ImportExpression[source.value=/^(\\.\\.\\/)+api(\\/|$)/]', message: 'lib/ does not import api/: take what it needs as a parameter.' },
      ],
    },
  },
  {
    files: ['tests/**/*.ts', 'bench/**/*.ts', 'bench/**/*.mjs'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      'no-console': 'off',
    },
  },
  {
    files: ['scripts/**/*.ts'],
    rules: { 'no-console': 'off' },
  },
  {
    files: ['**/*.mjs'],
    languageOptions: { globals: globals.node },
  },
);
