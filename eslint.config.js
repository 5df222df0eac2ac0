// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { defineConfig } from 'eslint/config';

export default defineConfig(
  { ignores: ['dist/', 'dist-*/', 'node_modules/', 'data/', '.astro/', 'test-results/', 'playwright-report/', 'src/lib/db/migrations/', '**/*.astro'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly', console: 'readonly', URL: 'readonly', Buffer: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly',
        window: 'readonly', document: 'readonly', localStorage: 'readonly', location: 'readonly', navigator: 'readonly', fetch: 'readonly',
      },
    },
    rules: {
      'no-console': ['error', { allow: ['error', 'warn', 'log'] }],
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      eqeqeq: ['error', 'always'],
    },
  },
  {
    // Only the server, scripts and benchmarks print; library code reports through return values.
    files: ['src/**/*.ts', 'src/**/*.tsx'],
    rules: { 'no-console': 'error' },
  },
);
