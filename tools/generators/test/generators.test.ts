// The generators run against an in-memory Nx Tree seeded with the workspace's real files (the ones they
// edit, as they are today), so a shared file that changes shape fails here before it fails a newcomer.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, test } from '@jest/globals';
import type { Tree } from '@nx/devkit';
import { createTreeWithEmptyWorkspace } from '@nx/devkit/testing';
import ts from 'typescript';
import { parse } from 'yaml';
import featureGenerator from '../feature/feature.ts';
import serviceGenerator from '../service/service.ts';

const repoRoot = path.resolve(import.meta.dirname, '../../..');

/** Every file outside the new service's folders that the generators read or edit. */
const SHARED_FILES = [
  'libs/contracts/src/routes.ts',
  'libs/contracts/src/http/index.ts',
  'libs/contracts/src/route-table.ts',
  'apps/gateway/src/config.ts',
  'apps/gateway/src/proxy.ts',
  'deploy/kubernetes/base/gateway/config.env',
  'deploy/kubernetes/base/kustomization.yaml',
  'deploy/kubernetes/overlays/production/kustomization.yaml',
  'tools/dev/system.ts',
  'tools/system/harness.ts',
  'docker/postgres/init.sql',
  'docker-compose.yml',
  'eslint.config.js',
];

const NOW = new Date('2026-11-25T15:30:00Z');

function seededTree(): Tree {
  const tree = createTreeWithEmptyWorkspace();
  for (const file of SHARED_FILES) tree.write(file, readFileSync(path.join(repoRoot, file), 'utf8'));
  return tree;
}

const text = (tree: Tree, file: string) => tree.read(file, 'utf-8') ?? '';
const changedFiles = (tree: Tree) => tree.listChanges().map((change) => change.path);

/** `after` is `before` with one piece of text inserted somewhere (or unchanged). */
function keptWithInsertion(before: string, after: string): boolean {
  let prefix = 0;
  while (prefix < before.length && before[prefix] === after[prefix]) prefix++;
  let suffix = 0;
  while (suffix < before.length - prefix && before[before.length - 1 - suffix] === after[after.length - 1 - suffix]) suffix++;
  return after.length >= before.length && prefix + suffix === before.length;
}
/** TypeScript's syntax errors of a generated file (types are checked by the real run: `tsc -p apps/<name>`). */
const syntaxErrors = (tree: Tree, file: string) =>
  (ts.transpileModule(text(tree, file), { fileName: file, reportDiagnostics: true, compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2023 } }).diagnostics ?? []).map(
    (diagnostic) => `${file}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`,
  );

describe('nx g @academy/tools:service demo-probe', () => {
  let tree: Tree;
  let before: Record<string, string>;
  let workspaceFiles: string[];
  beforeEach(async () => {
    tree = seededTree();
    before = Object.fromEntries(SHARED_FILES.map((file) => [file, text(tree, file)]));
    workspaceFiles = changedFiles(tree);
    await serviceGenerator(tree, { name: 'demo-probe', now: NOW });
  });

  test('writes the service of the house shape, its first feature, its manifests and its contract', () => {
    const created = changedFiles(tree).filter((file) => !workspaceFiles.includes(file));
    expect(created.filter((file) => file.startsWith('apps/demo-probe/')).sort()).toEqual(
      [
        'README.md',
        'jest.config.js',
        'project.json',
        'tsconfig.json',
        'src/config.ts',
        'src/entities.ts',
        'src/main.ts',
        'src/migrate.ts',
        'src/routes.ts',
        'src/service.ts',
        'src/subscriptions.ts',
        'src/shared/demo-probe-context.ts',
        'src/migrations/index.ts',
        'src/migrations/Migration20261125153000_initial.ts',
        'src/migrations/Migration20261125153001_demo_probe.ts',
        'src/demo-probe/create-entry.ts',
        'src/demo-probe/read-entry.ts',
        'src/demo-probe/demo-probe.entities.ts',
        'src/demo-probe/demo-probe.errors.ts',
        'src/demo-probe/demo-probe.routes.ts',
        'src/demo-probe/demo-probe.store.ts',
        'test/support.ts',
        'test/service.test.ts',
        'test/routes-docs.test.ts',
        'test/demo-probe/demo-probe.test.ts',
      ]
        .map((file) => `apps/demo-probe/${file}`)
        .sort(),
    );
    expect(created.filter((file) => !file.startsWith('apps/demo-probe/')).sort()).toEqual(
      [
        'deploy/kubernetes/base/demo-probe/config.env',
        'deploy/kubernetes/base/demo-probe/deployment.yaml',
        'deploy/kubernetes/base/demo-probe/scaling.yaml',
        'deploy/kubernetes/base/demo-probe/service.yaml',
        'deploy/kubernetes/overlays/production/secrets/demo-probe.env.example',
        'libs/contracts/src/http/demo-probe.ts',
      ].sort(),
    );
  });

  test('every generated file is filled in (no template tag or placeholder left) and every TypeScript file parses', () => {
    const generated = changedFiles(tree).filter((file) => !workspaceFiles.includes(file));
    for (const file of generated) expect(`${file}: ${text(tree, file)}`).not.toMatch(/<%|%>|__\w+__/);
    expect(generated.filter((file) => file.endsWith('.ts')).flatMap((file) => syntaxErrors(tree, file))).toEqual([]);
    expect(JSON.parse(text(tree, 'apps/demo-probe/project.json'))).toMatchObject({ name: 'demo-probe', tags: ['type:app', 'scope:demo-probe'] });
  });

  test('takes the next free port and its own database, and the first feature answers at the family prefix', () => {
    expect(text(tree, 'apps/demo-probe/src/config.ts')).toContain("baseConfigSchema({ port: 3006, database: 'demo_probe' })");
    expect(text(tree, 'tools/dev/system.ts')).toContain("  { name: 'demo-probe', port: 3006, database: 'demo_probe' },\n] as const;");
    expect(text(tree, 'libs/contracts/src/http/demo-probe.ts')).toMatch(/export const demoProbeApi = routeFamily\(\{ prefix: '\/api\/v2\/demo-probe', service: 'demo-probe'/);
    expect(text(tree, 'libs/contracts/src/http/demo-probe.ts')).toContain("path: '/api/v2/demo-probe/{id}'");
  });

  test('the contracts list the service, its family feeds the OpenAPI document and the gateway table', () => {
    expect(text(tree, 'libs/contracts/src/routes.ts')).toMatch(/export const SERVICES = \[[^\]]*'payslips', 'demo-probe'\] as const;/);
    const index = text(tree, 'libs/contracts/src/http/index.ts');
    expect(index).toContain("import { demoProbeApi } from './demo-probe.ts';");
    expect(index).toContain("export * from './demo-probe.ts';");
    expect(index).toMatch(/export const declaredFamilies: DeclaredFamily\[\] = \[[^\]]*demoProbeApi\];/);
    const table = text(tree, 'libs/contracts/src/route-table.ts');
    expect(table).toContain("import { demoProbeApi } from './http/demo-probe.ts';");
    expect(table).toMatch(/export const ROUTE_FAMILIES[\s\S]*\n {2}demoProbeApi,\n\];/);
  });

  test('lint holds its features apart: the service is one of the feature services of eslint.config.js', () => {
    expect(text(tree, 'eslint.config.js')).toMatch(/const FEATURE_SERVICES = \[[^\]]*'demo-probe'\];/);
  });

  test('the gateway gets its upstream: DEMO_PROBE_URL in its config schema, its proxy table and its Kubernetes config', () => {
    expect(text(tree, 'apps/gateway/src/config.ts')).toContain("  DEMO_PROBE_URL: env.url('http://127.0.0.1:3006'),");
    expect(text(tree, 'apps/gateway/src/proxy.ts')).toMatch(/payslips: config\.PAYSLIPS_URL, 'demo-probe': config\.DEMO_PROBE_URL \};/);
    expect(text(tree, 'deploy/kubernetes/base/gateway/config.env')).toContain('DEMO_PROBE_URL=http://demo-probe:3006');
  });

  test('npm start and test:system start it: its entry in tools/dev/system.ts, its name and URL in the harness', () => {
    const harness = text(tree, 'tools/system/harness.ts');
    expect(harness).toMatch(/export type BackendName = [^;]*\| 'demo-probe';/);
    expect(harness).toMatch(/\n(\s+)PAYSLIPS_URL: upstream\('payslips'\),\n\1DEMO_PROBE_URL: upstream\('demo-probe'\),\n/);
  });

  test('docker compose creates its database, runs it with a health check, and the gateway waits for it and knows its URL', () => {
    expect(text(tree, 'docker/postgres/init.sql').trimEnd().split('\n').at(-1)).toBe('CREATE DATABASE demo_probe;');
    const compose = parse(text(tree, 'docker-compose.yml'), { merge: true }) as { services: Record<string, { environment: Record<string, unknown>; depends_on: Record<string, unknown>; healthcheck: { test: string[] } }> };
    expect(compose.services['demo-probe'].environment).toMatchObject({ PORT: 3006, DATABASE_URL: 'postgres://postgres@postgres:5432/demo_probe', RABBITMQ_URL: expect.any(String) });
    expect(compose.services['demo-probe'].healthcheck.test.join(' ')).toContain('http://127.0.0.1:3006/readyz');
    expect(compose.services.gateway.environment.DEMO_PROBE_URL).toBe('http://demo-probe:3006');
    expect(compose.services.gateway.depends_on['demo-probe']).toEqual({ condition: 'service_healthy' });
  });

  test('Kubernetes: its Deployment, Service and autoscaling in the base, labelled as a service for the NetworkPolicies; its config, image and Secret', () => {
    const base = parse(text(tree, 'deploy/kubernetes/base/kustomization.yaml')) as { resources: string[]; configMapGenerator: { name: string; envs: string[] }[] };
    expect(base.resources).toEqual(expect.arrayContaining(['demo-probe/deployment.yaml', 'demo-probe/service.yaml', 'demo-probe/scaling.yaml']));
    expect(base.resources.at(-1)).toBe('network-policies.yaml');
    expect(base.configMapGenerator).toContainEqual({ name: 'demo-probe-config', envs: ['demo-probe/config.env'] });
    const deployment = parse(text(tree, 'deploy/kubernetes/base/demo-probe/deployment.yaml'));
    expect(deployment.metadata).toEqual({ name: 'demo-probe', labels: { 'app.kubernetes.io/name': 'demo-probe', 'app.kubernetes.io/component': 'service' } });
    expect(deployment.spec.template.metadata.labels).toEqual({ 'app.kubernetes.io/name': 'demo-probe', 'app.kubernetes.io/component': 'service' });
    expect(deployment.spec.template.spec.containers[0].ports).toEqual([{ name: 'http', containerPort: 3006, protocol: 'TCP' }]);
    expect(JSON.stringify(deployment)).not.toContain('hours');
    const production = parse(text(tree, 'deploy/kubernetes/overlays/production/kustomization.yaml')) as { images: { name: string }[]; secretGenerator: { name: string; envs?: string[] }[] };
    expect(production.images).toContainEqual({ name: 'academy/demo-probe', newName: 'registry.example.com/academy/demo-probe', newTag: '0.1.0' });
    expect(production.secretGenerator).toContainEqual({ name: 'demo-probe-secrets', envs: ['secrets/demo-probe.env'] });
  });

  test('shared files change only by the added lines (nothing of theirs is removed or rewritten)', () => {
    for (const file of SHARED_FILES) {
      const old = before[file].split('\n');
      const now = text(tree, file).split('\n');
      // Every old line is still there, in order, whole or with text inserted into it (an item added to a one-line list).
      let at = 0;
      const lost = old.filter((line) => {
        const found = now.findIndex((candidate, index) => index >= at && keptWithInsertion(line, candidate));
        if (found < 0) return true;
        at = found + 1;
        return false;
      });
      expect(`${file}: ${lost.join(' | ')}`).toBe(`${file}: `);
    }
  });

  test('a service that exists already, the gateway, a taken port or a name not in kebab-case are refused, naming why', async () => {
    await expect(serviceGenerator(tree, { name: 'demo-probe' })).rejects.toThrow('apps/demo-probe exists already');
    await expect(serviceGenerator(seededTree(), { name: 'gateway' })).rejects.toThrow('apps/gateway exists already');
    await expect(serviceGenerator(seededTree(), { name: 'other', port: 3002 })).rejects.toThrow('port 3002 is taken');
    await expect(serviceGenerator(seededTree(), { name: 'Demo_Probe' })).rejects.toThrow('kebab-case');
  });
});

describe('nx g @academy/tools:feature notes --service=demo-probe', () => {
  let tree: Tree;
  beforeEach(async () => {
    tree = seededTree();
    await serviceGenerator(tree, { name: 'demo-probe', now: NOW });
    await featureGenerator(tree, { name: 'notes', service: 'demo-probe', now: new Date('2026-11-26T08:00:00Z') });
  });

  test('writes the feature folder (routes, a use case a file, store, entities, errors), its migration and its test', () => {
    for (const file of ['notes.routes.ts', 'create-entry.ts', 'read-entry.ts', 'notes.store.ts', 'notes.entities.ts', 'notes.errors.ts']) {
      expect(tree.exists(`apps/demo-probe/src/notes/${file}`)).toBe(true);
      expect(syntaxErrors(tree, `apps/demo-probe/src/notes/${file}`)).toEqual([]);
    }
    expect(text(tree, 'apps/demo-probe/src/migrations/Migration20261126080000_notes.ts')).toContain('create table "notes_entries"');
    expect(text(tree, 'apps/demo-probe/src/notes/notes.entities.ts')).toContain("tableName: 'notes_entries'");
    expect(text(tree, 'apps/demo-probe/test/notes/notes.test.ts')).toContain("describe('POST /api/v2/notes'");
  });

  test('the anatomy: the routes implement the contract with implement(), each use case takes (ctx, input, actor)', () => {
    const routes = text(tree, 'apps/demo-probe/src/notes/notes.routes.ts');
    expect(routes).toContain("import { implement } from '../shared/demo-probe-context.ts';");
    expect(routes).toContain('export const notesRoutes = implement(notesContract, {');
    expect(text(tree, 'apps/demo-probe/src/notes/create-entry.ts')).toContain('export async function createNotesEntry(ctx: DemoProbeContext, input: CreateNotesEntryBody, actor: Actor)');
    expect(text(tree, 'apps/demo-probe/src/notes/read-entry.ts')).toContain('export async function readNotesEntry(ctx: DemoProbeContext, input: ReadNotesEntryInput, _actor: Actor)');
    expect(text(tree, 'apps/demo-probe/src/shared/demo-probe-context.ts')).toContain('export const implement = implementFor<DemoProbeContext>();');
  });

  test('mounts it beside the first feature: one mountImplementations call, entities.ts and the migrations list, oldest first', () => {
    const routes = text(tree, 'apps/demo-probe/src/routes.ts');
    expect(routes).toContain("import { notesRoutes } from './notes/notes.routes.ts';");
    expect(routes).toContain('  mountImplementations(app, ctx, [demoProbeRoutes, notesRoutes], { families: [demoProbeApi, notesApi] });\n}');
    expect(text(tree, 'apps/demo-probe/src/entities.ts')).toMatch(/export const entities = \[DemoProbeEntry, NotesEntry\];/);
    expect(text(tree, 'apps/demo-probe/src/migrations/index.ts')).toMatch(
      /export const migrations = \[Migration20261125153000_initial, Migration20261125153001_demo_probe, Migration20261126080000_notes\];/,
    );
    expect(syntaxErrors(tree, 'apps/demo-probe/src/routes.ts')).toEqual([]);
  });

  test('declares its family, its two routes and its contract once, in the service\'s contracts file; the family feeds the OpenAPI document and the gateway', () => {
    const contract = text(tree, 'libs/contracts/src/http/demo-probe.ts');
    expect(contract).toContain("export const notesApi = routeFamily({ prefix: '/api/v2/notes', service: 'demo-probe', access: 'bearer'");
    expect(contract).toContain("export const createNotesEntryRoute = notesApi.route({\n  method: 'post',\n  path: '/api/v2/notes',");
    expect(contract).toContain("path: '/api/v2/notes/{id}',");
    expect(contract).toContain('export const notesContract = contract({ create: createNotesEntryRoute, read: readNotesEntryRoute });');
    expect(syntaxErrors(tree, 'libs/contracts/src/http/demo-probe.ts')).toEqual([]);
    expect(text(tree, 'libs/contracts/src/http/index.ts')).toMatch(/export const declaredFamilies: DeclaredFamily\[\] = \[[^\]]*demoProbeApi, notesApi\];/);
    expect(text(tree, 'libs/contracts/src/route-table.ts')).toMatch(/\n {2}demoProbeApi,\n {2}notesApi,\n\];/);
  });

  test('a feature of a service that does not exist, one that exists, a reserved folder name or a family prefix taken is refused', async () => {
    await expect(featureGenerator(tree, { name: 'notes', service: 'nowhere' })).rejects.toThrow('apps/nowhere/src/service.ts not found');
    await expect(featureGenerator(tree, { name: 'notes', service: 'demo-probe' })).rejects.toThrow('apps/demo-probe/src/notes exists already');
    await expect(featureGenerator(tree, { name: 'shared', service: 'demo-probe' })).rejects.toThrow('reserved');
    tree.write('libs/contracts/src/http/hours-bank.ts', readFileSync(path.join(repoRoot, 'libs/contracts/src/http/hours-bank.ts'), 'utf8'));
    await expect(featureGenerator(tree, { name: 'hours-bank', service: 'demo-probe' })).rejects.toThrow('libs/contracts/src/http/hours-bank.ts declares hoursBankApi or a family at /api/v2/hours-bank already');
  });
});

/** The files of an existing service that :feature reads or edits, as they are today. */
function serviceFiles(service: string): string[] {
  const routes = readFileSync(path.join(repoRoot, `apps/${service}/src/routes.ts`), 'utf8');
  const context = /from '\.\/([\w/-]+-context\.ts)';/.exec(routes)![1];
  return ['src/service.ts', 'src/routes.ts', 'src/entities.ts', 'src/migrations/index.ts', `src/${context}`, 'test/support.ts'].map((file) => `apps/${service}/${file}`);
}

// The real run of each (lint, typecheck, the generated test) is `npm run test:generators`, in a scratch copy.
describe.each([
  ['academic', 'startAcademic(undefined, { clock })'],
  ['hours-bank', 'startHoursBank({ clock })'],
  ['incidents', 'startIncidents(undefined, { clock })'],
  ['notifications', 'startNotifications(await notificationsConfig(), undefined, { clock })'],
  ['payslips', 'startPayslips()'],
])('nx g @academy/tools:feature notes --service=%s (an existing service)', (service, start) => {
  let tree: Tree;
  beforeEach(async () => {
    tree = seededTree();
    const contracts = readdirSync(path.join(repoRoot, 'libs/contracts/src/http')).map((file) => `libs/contracts/src/http/${file}`);
    for (const file of [...serviceFiles(service), ...contracts]) tree.write(file, readFileSync(path.join(repoRoot, file), 'utf8'));
    await featureGenerator(tree, { name: 'notes', service, now: NOW });
  });

  test('mounts its implementation with the typed router, whatever the service still binds by hand', () => {
    const routes = text(tree, `apps/${service}/src/routes.ts`);
    expect(routes).toContain("import { notesRoutes } from './notes/notes.routes.ts';");
    expect(routes).toMatch(/mountImplementations\(app, ctx, \[([\w., ]+, )?notesRoutes\], \{ families: \[([\w., ]+, )?notesApi\] \}\);/);
    expect(syntaxErrors(tree, `apps/${service}/src/routes.ts`)).toEqual([]);
  });

  test('its routes take the service\'s context and its implement(), added to the context file when missing', () => {
    const [, contextFile] = /from '(\.\.\/[\w/-]+-context\.ts)';/.exec(text(tree, `apps/${service}/src/notes/notes.routes.ts`))!;
    const context = text(tree, path.posix.join(`apps/${service}/src/notes`, contextFile));
    expect(context).toMatch(/^export const implement = implementFor<\w+Context>\(\);$/m);
    expect(context).toMatch(/^import \{ [^}]*\bimplementFor\b[^}]* \} from '@academy\/service';$/m);
  });

  test('its entity joins entities.ts and its migration the list; its test starts the service with its clock pinned', () => {
    expect(text(tree, `apps/${service}/src/entities.ts`)).toMatch(/\bNotesEntry\b,?\n?\];/);
    expect(text(tree, `apps/${service}/src/migrations/index.ts`)).toMatch(/, Migration20261125153000_notes\];/);
    const generatedTest = text(tree, `apps/${service}/test/notes/notes.test.ts`);
    expect(generatedTest).toContain(`const running = await ${start};`);
    expect(generatedTest).toContain("useService(async () => {");
    expect(syntaxErrors(tree, `apps/${service}/test/notes/notes.test.ts`)).toEqual([]);
    for (const file of [`apps/${service}/src/entities.ts`, `apps/${service}/src/migrations/index.ts`]) expect(syntaxErrors(tree, file)).toEqual([]);
  });
});
