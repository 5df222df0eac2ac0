// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import astro from 'eslint-plugin-astro';
import { defineConfig } from 'eslint/config';

/*
 * Layering (design.md §3). Browser code — islands, nanostores, `*.client.ts` modules and the
 * `<script>` tags of .astro files (which eslint-plugin-astro lints as virtual `X.astro/N_N.ts` files) —
 * is bundled for the browser, so it must never reach `*.server.ts` I/O modules or Node built-ins.
 * `src/lib` is the layer islands build on, so it must not import from `src/islands`.
 * `.astro` frontmatter runs on the server and may import `*.server.ts`.
 */
const serverOnlyImports = [
  {
    regex: String.raw`\.server(\.[cm]?[jt]sx?)?$`,
    message: 'Browser code (islands, stores, *.client.ts, <script> tags) must not import a *.server.ts module: it does I/O and would be bundled for the browser. Import the pure module (or index without server exports) or pass the data as props.',
  },
  {
    regex: '^node:',
    message: 'Browser code (islands, stores, *.client.ts, <script> tags) must not import Node built-ins (node:*).',
  },
];
const islandImports = [
  {
    regex: String.raw`^(~/|(\.\.?/)+)(.*/)?islands(/|$)`,
    message: 'src/lib must not import from src/islands: islands depend on lib, not the other way round. Move the shared code or type into src/lib.',
  },
];
/*
 * The configuration (`src/lib/config/config.ts`) is the only reader of the environment: everything else
 * gets its settings from the runtime (`locals.runtime.config`) or as parameters, so a setting is read,
 * checked and documented once. Exempt: test code (tests, their helpers and the fixture processes they
 * start set and pass variables of their own: `TEST_POSTGRES_URL`, a child's `DATA_DIR` …).
 * `scripts/` and `bench/` are not linted by this rule either: they run outside the academy (the
 * launcher sets `NODE_ENV` and allocator variables before the server exists; test runner, benchmarks,
 * screenshots drive servers through their environment).
 */
const environmentReads = [
  {
    selector: "MemberExpression[object.name='process']:matches([property.name='env'][computed=false], [property.value='env']), VariableDeclarator[init.name='process'] > ObjectPattern > Property[key.name='env']",
    message: 'Only src/lib/config/config.ts reads process.env: add the variable to its schema and take the setting from locals.runtime.config (or a parameter).',
  },
  {
    selector: "MemberExpression[object.type='MetaProperty'][property.name='env']",
    message: 'Do not read import.meta.env: the configuration decides (e.g. locals.runtime.config.production instead of import.meta.env.PROD).',
  },
  {
    selector: "ImportDeclaration[source.value=/^(node:)?process$/] > ImportSpecifier[imported.name='env']",
    message: 'Only src/lib/config/config.ts reads the environment: take the setting from locals.runtime.config (or a parameter).',
  },
];
const environmentReaders = ['src/lib/config/config.ts'];
const testCode = ['**/*.test.ts', '**/*.test.tsx', 'src/lib/testing/**', 'src/lib/db/testing.ts', 'server/*.child.ts'];

const browserFiles = ['src/islands/**', 'src/lib/stores/**', 'src/**/*.client.ts', 'src/**/*.client.tsx', 'src/**/*.astro/*.ts', 'src/**/*.astro/*.js'];
const libBrowserFiles = ['src/lib/stores/**', 'src/lib/**/*.client.ts', 'src/lib/**/*.client.tsx'];

export default defineConfig(
  { ignores: ['dist/', 'dist-*/', 'node_modules/', 'data/', '.astro/', 'test-results/', 'playwright-report/', 'src/lib/db/migrations/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...astro.configs.recommended,
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
    // (Tests and test helpers may say why they skip.) The empty options replace the allow-list above, which a bare
    // 'error' would inherit.
    files: ['src/**/*.ts', 'src/**/*.tsx'],
    ignores: ['src/**/*.test.ts', 'src/lib/db/testing.ts', 'src/lib/testing/**'],
    rules: { 'no-console': ['error', {}] },
  },
  {
    files: ['src/**', 'server/**'],
    ignores: [...environmentReaders, ...testCode],
    rules: { 'no-restricted-syntax': ['error', ...environmentReads] },
  },
  // Later blocks override earlier ones for the same rule, so browser files inside src/lib get both lists.
  {
    files: browserFiles,
    rules: { 'no-restricted-imports': ['error', { patterns: serverOnlyImports }] },
  },
  {
    files: ['src/lib/**'],
    ignores: libBrowserFiles,
    rules: { 'no-restricted-imports': ['error', { patterns: islandImports }] },
  },
  {
    // The configuration depends on no domain: domains depend on it (the shapes they share live in it).
    files: ['src/lib/config/**'],
    ignores: ['src/lib/config/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...islandImports,
            {
              regex: String.raw`^(~/|\.\./)(?!(lib/)?(zod|site)$)`,
              message: 'src/lib/config imports no domain (only zod and the fixed company details): move the shared shape into src/lib/config, or pass it in.',
            },
          ],
        },
      ],
    },
  },
  {
    files: libBrowserFiles,
    rules: { 'no-restricted-imports': ['error', { patterns: [...serverOnlyImports, ...islandImports] }] },
  },
);
