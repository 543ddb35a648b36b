import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', '.scratch/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // ARCHITECTURE §1: the core never depends on plugins or the CLI.
    files: ['core/**/*.ts', 'core/**/*.tsx'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        { group: ['**/plugins/**', '**/plugins', '**/cli/**', '**/cli'], message: 'core/ must not import from plugins/ or cli/ (ARCHITECTURE §1).' },
      ] }],
    },
  },
);
