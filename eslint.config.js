import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'coverage/**',
      '.scratch/**',
      'examples/*/dist/**',
      'examples/*/node_modules/**',
    ],
  },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // The `yoi` executable is a CommonJS script (bin/package.json): see bin/run.js.
    files: ['bin/**/*.js'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', __dirname: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Built-ins are written exactly like third-party plugins: from the core, only its public face.
    files: ['plugins/**/*.ts', 'plugins/**/*.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/core/**', '!**/core/api.js'],
              message:
                'plugins/ import only the public API (core/api.js), exactly as a third-party plugin imports yoi.',
            },
            { group: ['**/cli/**', '**/cli'], message: 'plugins/ must not import from cli/.' },
            {
              group: ['../client/**', '../../client/**', '../../../client/**', '../../../../client/**'],
              message: 'plugins/ reach the client through the public API (core/api.js).',
            },
          ],
        },
      ],
    },
  },
  {
    // ARCHITECTURE §1: the core never depends on plugins or the CLI; one concept per file, none over 300 lines.
    files: ['core/**/*.ts', 'core/**/*.tsx'],
    rules: {
      'max-lines': ['error', { max: 300 }],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/plugins/**', '**/plugins', '**/cli/**', '**/cli'],
              message: 'core/ must not import from plugins/ or cli/ (ARCHITECTURE §1).',
            },
            {
              group: ['../client/**', '../../client/**', '../../../client/**'],
              message: 'the pod does not use the client: only core/api.ts re-exports it, for plugins and clients.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['core/api.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/plugins/**', '**/cli/**'], message: 'core/ must not import from plugins/ or cli/.' },
          ],
        },
      ],
    },
  },
  {
    // The client is what CLI commands, attach, the outbox and the pod tools talk to a pod with.
    files: ['client/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/plugins/**', '**/plugins', '**/cli/**', '**/cli'],
              message: 'client/ must not import from plugins/ or cli/.',
            },
          ],
        },
      ],
    },
  },
);
