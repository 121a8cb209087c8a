// Lint: typescript-eslint recommended + react-hooks, and the walls of the code base as import zones
// (import-x/no-restricted-paths resolves each import to its file, so `../../x` and `./x` alike count):
// - machines/ are pure and import nothing from src/;
// - src/server and src/web never import each other; src/api (the contract's client) imports nothing
//   from src/web, which hands it what it needs;
// - a folder of src/web/features does not import another: what two features share lives in
//   src/web/components or src/web/lib, and the routes compose features. The zones are made from the
//   folder list when the config loads, so a new feature is walled in without an edit here.
// - no import cycles: tests/contract/import-cycles.test.ts (types and import() included, in 0.2 s),
//   not import-x/no-cycle, which found a subset of them for a third of the lint's time (decisions 039, 188).
//   The resolver settings let no-restricted-paths resolve .ts and .tsx files.
// - no function over 80 lines (blank lines and comments aside) in src/ and machines/: a longer one
//   reads as several steps, which get names; one that reads better whole is let off by a disable
//   comment that says why (issue 34).
import { readdirSync } from 'node:fs';
import path from 'node:path';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';

const root = import.meta.dirname;
const FEATURES = 'src/web/features';
const features = readdirSync(path.join(root, FEATURES), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

const zones = [
  { target: './machines', from: './src', message: 'machines/ are pure: no imports from src/.' },
  { target: './src/server', from: './src/web', message: 'The server does not import the web app.' },
  { target: './src/web', from: './src/server', message: 'The web app does not import the server: it talks to it through src/api.' },
  { target: './src/api', from: './src/web', message: 'src/api does not import the web app: the web hands the client what it needs.' },
  ...features.map((feature) => ({
    target: `./${FEATURES}/${feature}`,
    from: `./${FEATURES}`,
    except: [`./${feature}`],
    message: 'A feature does not import another feature: share through src/web/components or src/web/lib, or compose in the route.',
  })),
];

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'dist-server/**',
      'data/**',
      'node_modules/**',
      'src/api/schema.d.ts',
      'src/web/routeTree.gen.ts',
      'src/server/db/migrations/**',
      'test-results/**',
      // Mutation testing's reports and sandbox (npm run test:mutation, decision 042).
      'reports/**',
      '.stryker-tmp/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}', 'machines/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.json'] })],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: root, zones }],
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    files: ['src/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  {
    files: ['machines/**/*.ts'],
    rules: { 'no-restricted-globals': ['error', 'window', 'document', 'fetch', 'localStorage'] },
  },
);
