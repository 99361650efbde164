// `npx nx g @academy/tools:service <name>`: a service of the house's shape (/work/shared/STYLE.md,
// README "Adding a service / a feature") with its first feature, wired everywhere a service is, so it
// passes lint, typecheck, its tests and the deploy test as generated.
import path from 'node:path';
import { generateFiles, logger, names, type Tree } from '@nx/devkit';
import featureGenerator from '../feature/feature.ts';
import { appendToArray, checkName, editMatch, insertAfterLastLine, insertBeforeLine, migrationTimestamp, readText, snakeCase, titleOf } from '../shared/edits.ts';

export interface ServiceOptions {
  name: string;
  port?: number;
  feature?: string;
  description?: string;
  /** The instant the migrations' names are made from (tests pin it); now otherwise. */
  now?: Date;
}

interface ServiceVars {
  name: string;
  className: string;
  propertyName: string;
  constantName: string;
  database: string;
  port: number;
  prefix: string;
  /** The gateway's variable for the service's URL: `DEMO_PROBE_URL`. */
  urlVariable: string;
}

export default async function serviceGenerator(tree: Tree, options: ServiceOptions): Promise<() => void> {
  const name = checkName('Service', options.name);
  if (name === 'gateway' || tree.exists(`apps/${name}`)) throw new Error(`apps/${name} exists already`);
  const taken = portsInUse(tree);
  const port = options.port ?? Math.max(...taken) + 1;
  if (taken.includes(port)) throw new Error(`port ${port} is taken (tools/dev/system.ts)`);
  const now = options.now ?? new Date();
  const vars: ServiceVars = {
    ...names(name),
    name,
    database: snakeCase(name),
    port,
    prefix: `/api/v2/${options.feature ?? name}`,
    urlVariable: `${names(name).constantName}_URL`,
  };
  generateFiles(tree, path.join(import.meta.dirname, 'files'), '.', {
    ...vars,
    title: titleOf(name),
    description: options.description ?? `${titleOf(name)}.`,
    timestamp: migrationTimestamp(now),
    tmpl: '',
  });

  wireContracts(tree, vars);
  // Lint holds its features apart (no feature imports a sibling; shared/ imports none).
  appendToArray(tree, 'eslint.config.js', /const FEATURE_SERVICES/, `'${name}'`);
  wireGateway(tree, vars);
  wireLocalSystem(tree, vars);
  wireCompose(tree, vars);
  wireKubernetes(tree, vars);

  // The first feature's migration comes a second after the initial one.
  await featureGenerator(tree, { name: options.feature ?? name, service: name, now: new Date(now.getTime() + 1000) });

  return () => {
    logger.info(`${name}: port ${port}, database ${vars.database}, routes under ${vars.prefix} (libs/contracts/src/http/${name}.ts).`);
    logger.info(`Next: npx eslint apps/${name} && npx tsc -p apps/${name}/tsconfig.json --noEmit && npx nx test ${name}`);
  };
}

/** Local ports of tools/dev/system.ts (`npm start`): a new service takes the next. */
function portsInUse(tree: Tree): number[] {
  return [...readText(tree, 'tools/dev/system.ts').matchAll(/port: (\d+)/g)].map((match) => Number(match[1]));
}

/** Its name in the contracts and its contracts file (each feature adds its own family there: the OpenAPI document registers its routes, the gateway's table routes its prefix). */
function wireContracts(tree: Tree, v: ServiceVars): void {
  appendToArray(tree, 'libs/contracts/src/routes.ts', /export const SERVICES/, `'${v.name}'`);
  insertAfterLastLine(tree, 'libs/contracts/src/http/index.ts', /^export \* from '\.\/[\w-]+\.ts';$/, `export * from './${v.name}.ts';`);
}

/** The gateway's upstream: its URL variable (config, proxy, the Kubernetes config). */
function wireGateway(tree: Tree, v: ServiceVars): void {
  insertAfterLastLine(tree, 'apps/gateway/src/config.ts', /^ {2}[A-Z_]+_URL: env\.url\('http:\/\/127\.0\.0\.1:\d+'\),$/, `  ${v.urlVariable}: env.url('http://127.0.0.1:${v.port}'),`);
  const key = /^[a-z][a-z0-9]*$/.test(v.name) ? v.name : `'${v.name}'`;
  editMatch(tree, 'apps/gateway/src/proxy.ts', /(return \{ academic: config\.ACADEMIC_URL[^}]*?)( \};)/, (match) => `${match[1]}, ${key}: config.${v.urlVariable}${match[2]}`);
  insertAfterLastLine(tree, 'deploy/kubernetes/base/gateway/config.env', /^[A-Z_]+_URL=http:\/\/[\w-]+:\d+$/, `${v.urlVariable}=http://${v.name}:${v.port}`);
}

/** `npm start` (tools/dev/system.ts) and `npm run test:system` (its harness starts every service of that list). */
function wireLocalSystem(tree: Tree, v: ServiceVars): void {
  insertBeforeLine(tree, 'tools/dev/system.ts', /^\] as const;$/, `  { name: '${v.name}', port: ${v.port}, database: '${v.database}' },`, /^export const SERVICES/);
  const harness = 'tools/system/harness.ts';
  editMatch(tree, harness, /(export type BackendName = [^;]*)(;)/, (match) => `${match[1]} | '${v.name}'${match[2]}`);
  insertAfterLastLine(tree, harness, /^\s+[A-Z_]+_URL: upstream\('[\w-]+'\),$/, (anchor) => `${/^\s*/.exec(anchor)![0]}${v.urlVariable}: upstream('${v.name}'),`);
}

/** `docker compose up`: its database, its container, the gateway's variable and dependency. */
function wireCompose(tree: Tree, v: ServiceVars): void {
  const initSql = 'docker/postgres/init.sql';
  tree.write(initSql, `${readText(tree, initSql).trimEnd()}\nCREATE DATABASE ${v.database};\n`);
  const compose = 'docker-compose.yml';
  insertBeforeLine(tree, compose, /^ {2}gateway:$/, [
    `  ${v.name}:`,
    '    <<: *service',
    `    build: { context: ., target: runtime, args: { SERVICE: ${v.name} } }`,
    `    environment: { <<: *service-env, PORT: ${v.port}, DATABASE_URL: postgres://postgres@postgres:5432/${v.database} }`,
    `    healthcheck: { <<: *readyz, test: ["CMD", "node", "-e", "fetch('http://127.0.0.1:${v.port}/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"] }`,
    '',
  ]);
  insertAfterLastLine(tree, compose, /^ {6}[A-Z_]+_URL: http:\/\/[\w-]+:\d+$/, `      ${v.urlVariable}: http://${v.name}:${v.port}`);
  insertBeforeLine(tree, compose, /^ {4}healthcheck:/, `      ${v.name}: { condition: service_healthy }`, /^ {2}gateway:$/);
}

/** Its Deployment, Service, HPA and PDB (generated files) in the base kustomization and the production overlay. */
function wireKubernetes(tree: Tree, v: ServiceVars): void {
  const base = 'deploy/kubernetes/base/kustomization.yaml';
  insertBeforeLine(tree, base, /^ {2}- network-policies\.yaml$/, [`  - ${v.name}/deployment.yaml`, `  - ${v.name}/service.yaml`, `  - ${v.name}/scaling.yaml`]);
  insertAfterLastLine(tree, base, /^ {4}envs: \[[\w-]+\/config\.env\]$/, [`  - name: ${v.name}-config`, `    envs: [${v.name}/config.env]`]);
  const production = 'deploy/kubernetes/overlays/production/kustomization.yaml';
  insertAfterLastLine(tree, production, /^ {2}- \{ name: academy\/[\w-]+, newName: /, `  - { name: academy/${v.name}, newName: registry.example.com/academy/${v.name}, newTag: 0.1.0 }`);
  insertAfterLastLine(tree, production, /^ {2}- \{ name: [\w-]+-secrets, envs: \[secrets\/[\w-]+\.env\] \}$/, `  - { name: ${v.name}-secrets, envs: [secrets/${v.name}.env] }`);
}
