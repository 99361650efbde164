import { readdirSync } from 'node:fs';
import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';
import local from './tools/eslint/sql-in-store.js';

// What each library may import, by its `scope:*` tag (project.json): the layers run from contracts
// up to service; infra (local servers) and testing (test helpers) sit beside them, for tests and tools.
const libraryLayers = {
  'scope:contracts': [],
  'scope:kit': ['scope:contracts'],
  'scope:files': ['scope:contracts', 'scope:kit'],
  'scope:auth': ['scope:contracts', 'scope:kit'],
  'scope:db': ['scope:contracts', 'scope:kit'],
  'scope:messaging': ['scope:contracts', 'scope:kit', 'scope:db'],
  'scope:replicas': ['scope:contracts', 'scope:kit', 'scope:db', 'scope:messaging'],
  'scope:service': ['scope:contracts', 'scope:kit', 'scope:db', 'scope:messaging', 'scope:auth'],
  'scope:privacy': ['scope:contracts', 'scope:kit', 'scope:db', 'scope:messaging', 'scope:files'],
  'scope:telemetry': [],
  'scope:infra': [],
  'scope:testing': ['scope:contracts', 'scope:kit', 'scope:db', 'scope:messaging', 'scope:auth', 'scope:service', 'scope:infra'],
};
/** Only for tests and tools: a service never starts local servers or loads test helpers. */
const testOnly = ['scope:infra', 'scope:testing'];
/** What an app's own source may import: every library but the test-only ones. */
const productionScopes = [...Object.keys(libraryLayers).filter((scope) => !testOnly.includes(scope)), 'scope:telemetry'];

/**
 * `a.pipe(b)` passes no error on: an 'error' on `a` with no listener ends the process (issue 18). Streams
 * are joined with `pipeline`. No ESLint rule knows a stream's type, so these selectors tell a stream's
 * pipe (into a camelCase variable or property, a `new …`, a `create…()`) from zod's `.pipe(Schema)`.
 */
const pipeWithoutPipeline = [
  "CallExpression[callee.property.name='pipe'][arguments.0.type='Identifier'][arguments.0.name=/^[a-z_$]/]",
  "CallExpression[callee.property.name='pipe'][arguments.0.type='MemberExpression'][arguments.0.property.name=/^[a-z_$]/]",
  "CallExpression[callee.property.name='pipe'][arguments.0.type='NewExpression']",
  "CallExpression[callee.property.name='pipe'][arguments.0.type='CallExpression'][arguments.0.callee.name=/^create/]",
  "CallExpression[callee.property.name='pipe'][arguments.0.type='CallExpression'][arguments.0.callee.property.name=/^create/]",
].map((selector) => ({ selector, message: 'Join streams with pipeline (node:stream/promises): .pipe() passes no error on, and an unhandled stream error ends the process.' }));

/**
 * In a service made of features (one folder each), no feature imports a sibling feature and
 * `shared/` imports no feature: what two features need moves to `shared/`. The folders are read
 * from disk, so a new feature is covered without editing this file. `http/`, `messaging/` and
 * `data/` are the service's wiring where a service still has them (they mount or bind features).
 */
const FEATURE_SERVICES = ['academic', 'hours-bank', 'incidents', 'notifications', 'payslips'];
const NOT_FEATURES = new Set(['shared', 'migrations', 'http', 'messaging', 'data']);
const featureFolders = (service) =>
  readdirSync(new URL(`apps/${service}/src`, import.meta.url), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !NOT_FEATURES.has(entry.name))
    .map((entry) => entry.name);
const importsOf = (folders) => folders.flatMap((folder) => [`../${folder}/*`, `../../${folder}/*`]);
const featureBoundaries = FEATURE_SERVICES.flatMap((service) => {
  const features = featureFolders(service);
  return [
    // A service of one feature (hours-bank) has no sibling to keep out.
    ...(features.length > 1 ? features : []).map((feature) => ({
      files: [`apps/${service}/src/${feature}/**/*.ts`],
      rules: {
        'no-restricted-imports': ['error', { patterns: [{ group: importsOf(features.filter((other) => other !== feature)), message: `A feature imports no sibling feature: move what both need to apps/${service}/src/shared/.` }] }],
      },
    })),
    {
      files: [`apps/${service}/src/shared/**/*.ts`],
      rules: { 'no-restricted-imports': ['error', { patterns: [{ group: importsOf(features), message: 'shared/ imports no feature.' }] }] },
    },
  ];
});

/** Services whose SQL lives in their features' `*.store.ts` only (and migrations): kept so by `local/sql-in-store`. */
const SQL_IN_STORE_SERVICES = ['academic', 'hours-bank', 'incidents', 'notifications', 'payslips'];

/** Module boundaries; `forTests` lets test files also use the test-only libraries. */
const boundaries = (forTests) => [
  'error',
  {
    allow: [],
    // A library's tests import @academy/testing, which imports that library: the project graph sees a cycle
    // through testing (test files only; the layers below keep testing out of every library's and app's source).
    ignoredCircularDependencies: [['testing', '*']],
    depConstraints: [
      // apps (services and the gateway) use libraries only, never another app, a tool or a test-only library.
      // Checked on the app's own imports: `notDependOnLibsWithTags` would follow the graph through the
      // libraries' test files (kit's tests use infra) and refuse every app.
      { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:lib'] },
      ...(forTests ? [] : [{ sourceTag: 'type:app', onlyDependOnLibsWithTags: productionScopes }]),
      ...Object.entries(libraryLayers).map(([sourceTag, allowed]) => ({
        sourceTag,
        onlyDependOnLibsWithTags: [sourceTag, ...allowed, ...(forTests ? testOnly : [])],
      })),
    ],
  },
];

export default tseslint.config(
  { ignores: ['**/node_modules/**', 'dist/**', '.local/**', '.nx/**', '**/migrations/.snapshot*.json'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.js'],
    plugins: { '@nx': nx },
    rules: {
      '@nx/enforce-module-boundaries': boundaries(false),
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-syntax': ['error', ...pipeWithoutPipeline],
    },
  },
  ...featureBoundaries,
  {
    // SQL only in a feature's *.store.ts and in migrations (tools/eslint/sql-in-store.js), in every service (all five
    // follow the feature anatomy); a new service joins the list.
    files: SQL_IN_STORE_SERVICES.map((service) => `apps/${service}/src/**/*.ts`),
    plugins: { local },
    rules: { 'local/sql-in-store': 'error' },
  },
  {
    files: ['**/test/**/*.ts', '**/*.test.ts'],
    rules: {
      '@nx/enforce-module-boundaries': boundaries(true),
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    // scripts (start, benchmarks, dlq) drive apps in-process, by path; deploy's tests read each app's config schema
    files: ['**/jest.config.js', 'tools/**', 'deploy/**'],
    rules: { '@nx/enforce-module-boundaries': 'off' },
  },
);
