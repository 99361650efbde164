// `npx nx g @academy/tools:feature <name> --service=<service>`: one feature folder of the house's shape
// (/work/shared/STYLE.md, README "Adding a service / a feature"), its routes declared once in the
// contracts, its table's migration and a component test, all passing lint, typecheck and tests as generated.
import path from 'node:path';
import { generateFiles, names, type Tree } from '@nx/devkit';
import { addImport, appendToArray, checkName, editMatch, insertBeforeLine, migrationTimestamp, readText, snakeCase, titleOf } from '../shared/edits.ts';

export interface FeatureOptions {
  name: string;
  service: string;
  /** The instant the migration's name is made from (tests pin it); now otherwise. */
  now?: Date;
}

/** Folder names a feature may not take: they have another meaning in a service's `src/`. */
const RESERVED = ['shared', 'migrations', 'http', 'data', 'domain', 'messaging'];

export default async function featureGenerator(tree: Tree, options: FeatureOptions): Promise<void> {
  const name = checkName('Feature', options.name);
  const service = checkName('Service', options.service);
  const appRoot = `apps/${service}`;
  if (!tree.exists(`${appRoot}/src/service.ts`)) throw new Error(`${appRoot}/src/service.ts not found: is "${service}" a service?`);
  if (RESERVED.includes(name)) throw new Error(`"${name}" is a reserved folder of a service's src/; choose another feature name`);
  if (tree.exists(`${appRoot}/src/${name}`)) throw new Error(`${appRoot}/src/${name} exists already`);
  const contract = `libs/contracts/src/http/${service}.ts`;
  readText(tree, contract);
  // Each feature is its own route family at `/api/v2/<feature>` (academic's features are too): the same
  // error style, token check and gateway rule whatever the service's older families do.
  const family = `${names(name).propertyName}Api`;
  const prefix = `/api/v2/${name}`;
  for (const file of tree.children('libs/contracts/src/http').map((child) => `libs/contracts/src/http/${child}`)) {
    const text = readText(tree, file);
    if (text.includes(`prefix: '${prefix}'`) || new RegExp(`export const ${family}\\b`).test(text)) throw new Error(`${file} declares ${family} or a family at ${prefix} already; choose another feature name`);
  }
  const wiring = serviceWiring(tree, appRoot, service);

  const feature = names(name);
  const vars = {
    ...feature,
    name,
    service,
    serviceClassName: names(service).className,
    title: titleOf(name),
    snakeName: snakeCase(name),
    table: `${snakeCase(name)}_entries`,
    family,
    path: prefix,
    contextType: wiring.contextType,
    contextImport: `../${wiring.contextPath}`,
    ...wiring.test,
    timestamp: migrationTimestamp(options.now ?? new Date()),
    tmpl: '',
  };
  generateFiles(tree, path.join(import.meta.dirname, 'files'), '.', vars);

  appendContract(tree, contract, service, vars);
  registerFamily(tree, service, family);
  mount(tree, appRoot, wiring, vars);
}

interface ServiceWiring {
  /** registerRoutes' parameter and type for the service's context, and that type's file under src/. */
  contextName: string;
  contextType: string;
  contextPath: string;
  /** How the generated test starts the service with its clock pinned (from test/support.ts). */
  test: { startImport: string; startCall: string; setsClock: boolean };
}

/** What the generator reads of a service: its routes' context, and how its test support starts it. */
function serviceWiring(tree: Tree, appRoot: string, service: string): ServiceWiring {
  const routes = `${appRoot}/src/routes.ts`;
  const routesText = readText(tree, routes);
  const signature = /export function registerRoutes\(app: Express, (\w+): (\w+)[,)]/.exec(routesText);
  if (!signature) throw new Error(`${routes}: found no registerRoutes(app: Express, ctx: <Context>, …); the file changed shape, update tools/generators`);
  const [, contextName, contextType] = signature;
  const contextImport = new RegExp(`^import (?:type )?\\{[^}]*\\b${contextType}\\b[^}]*\\} from '\\./([^']+)';$`, 'm').exec(routesText);
  if (!contextImport) throw new Error(`${routes}: found no import of ${contextType}`);
  return { contextName, contextType, contextPath: contextImport[1], test: testStart(tree, `${appRoot}/test/support.ts`, names(service).className, names(service).propertyName) };
}

/** Splits a parameter list at its top-level commas. */
function parameters(list: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of list) {
    if ('<{[('.includes(char)) depth++;
    if ('>}])'.includes(char)) depth--;
    if (char === ',' && depth === 0) {
      out.push(current.trim());
      current = '';
    } else current += char;
  }
  if (current.trim()) out.push(current.trim());
  return out;
}

/**
 * The call that starts the service in the generated test, its clock pinned: `start<Service>(…, { clock })`
 * when it takes StartOptions (earlier parameters left to their defaults, a required Config from the
 * support's `<service>Config`/`<service>TestConfig`), or `start<Service>()` when it pins its own clock
 * and returns it (`service.clock`), which the test then sets.
 */
function testStart(tree: Tree, support: string, className: string, propertyName: string): ServiceWiring['test'] {
  const text = readText(tree, support);
  const start = `start${className}`;
  const declaration = new RegExp(`export async function ${start}\\(([^)]*)\\)`).exec(text);
  if (!declaration) throw new Error(`${support}: found no exported async function ${start}(…) to start the service with`);
  const params = parameters(declaration[1]);
  const optionsAt = params.findIndex((param) => /^\w+\??: StartOptions\b/.test(param));
  if (optionsAt < 0) {
    const body = text.slice(declaration.index, text.indexOf('\n}', declaration.index));
    if (params.every((param) => /=|\?:/.test(param)) && /fixedClock\(/.test(body) && /clock/.test(body)) return { startImport: start, startCall: `${start}()`, setsClock: true };
    throw new Error(`${support}: ${start} takes no StartOptions (options.clock) and does not pin its own clock: give it an \`options: StartOptions = {}\` parameter`);
  }
  const imports = [start];
  const args = params.slice(0, optionsAt).map((param) => {
    if (/=|\?:/.test(param)) return 'undefined';
    if (!/:\s*Config$/.test(param)) throw new Error(`${support}: ${start}'s parameter "${param}" has no default; the generated test cannot fill it`);
    const config = new RegExp(`export async function (${propertyName}(?:Test)?Config)\\(`).exec(text)?.[1];
    if (!config) throw new Error(`${support}: ${start} needs a Config and the support exports no ${propertyName}Config()`);
    imports.push(config);
    return `await ${config}()`;
  });
  return { startImport: imports.join(', '), startCall: `${start}(${[...args, '{ clock }'].join(', ')})`, setsClock: false };
}

interface FeatureVars {
  name: string;
  className: string;
  propertyName: string;
  constantName: string;
  title: string;
  family: string;
  path: string;
  snakeName: string;
  timestamp: string;
}

/** The feature's family, schemas, routes and contract (`contract()`, which its `<feature>.routes.ts` implements key for key). */
function appendContract(tree: Tree, file: string, service: string, v: FeatureVars): void {
  addImport(tree, file, ['z'], 'zod');
  addImport(tree, file, ['Id', 'IdText', 'errorResponses', 'jsonContent'], './common.ts');
  addImport(tree, file, ['contract', 'routeFamily'], '../routes.ts');
  const block = `
// ${v.title}: ${v.path}

/** \`${v.path}\`: every route needs a token. */
export const ${v.family} = routeFamily({ prefix: '${v.path}', service: '${service}', access: 'bearer', errorStyle: 'default', unauthorizedMessage: 'Unauthorized', tags: ['${v.title}'] });

export const ${v.className}EntryView = z.object({ id: Id, name: z.string(), createdAt: z.iso.datetime() });
export type ${v.className}EntryView = z.infer<typeof ${v.className}EntryView>;
export const Create${v.className}EntryBody = z.strictObject({ name: z.string().trim().min(1).max(120) });
export type Create${v.className}EntryBody = z.infer<typeof Create${v.className}EntryBody>;
const ${v.className}EntryParams = z.object({ id: IdText.meta({ description: '${v.title} entry id (positive integer)', example: '1' }) });

export const create${v.className}EntryRoute = ${v.family}.route({
  method: 'post',
  path: '${v.path}',
  summary: 'Create a ${v.title.toLowerCase()} entry; admin only',
  role: 'admin',
  roleRefusal: { message: 'Only administrators may create ${v.title.toLowerCase()} entries' },
  request: { body: Create${v.className}EntryBody },
  responses: {
    201: jsonContent(z.object({ message: z.string(), data: ${v.className}EntryView }), 'Created'),
    ...errorResponses({ 400: 'VALIDATION_ERROR on the body', 403: 'Not an administrator' }),
  },
});

export const read${v.className}EntryRoute = ${v.family}.route({
  method: 'get',
  path: '${v.path}/{id}',
  summary: 'Read a ${v.title.toLowerCase()} entry',
  request: { params: ${v.className}EntryParams },
  responses: {
    200: jsonContent(z.object({ data: ${v.className}EntryView }), 'The entry'),
    ...errorResponses({ 400: 'VALIDATION_ERROR on the id', 404: '${v.constantName}_ENTRY_NOT_FOUND' }),
  },
});

/** ${v.title}'s routes by name: \`${v.propertyName}Routes\` implements them. */
export const ${v.propertyName}Contract = contract({ create: create${v.className}EntryRoute, read: read${v.className}EntryRoute });
`;
  tree.write(file, readText(tree, file).trimEnd() + '\n' + block);
}

/** Its family feeds the OpenAPI document (declaredFamilies) and the gateway's table (ROUTE_FAMILIES). */
function registerFamily(tree: Tree, service: string, family: string): void {
  const http = 'libs/contracts/src/http/index.ts';
  addImport(tree, http, [family], `./${service}.ts`);
  appendToArray(tree, http, /export const declaredFamilies/, family);
  const table = 'libs/contracts/src/route-table.ts';
  addImport(tree, table, [family], `./http/${service}.ts`);
  insertBeforeLine(tree, table, /^\];$/, `  ${family},`, /^export const ROUTE_FAMILIES/);
}

/**
 * Its implementation mounted in routes.ts (joining the service's \`mountImplementations\` call, or a call
 * of its own in a service that still binds routes by hand), \`implement\` in the service's context
 * file when it has none, its entity in entities.ts, its migration in migrations/index.ts.
 */
function mount(tree: Tree, appRoot: string, wiring: ServiceWiring, v: FeatureVars): void {
  const context = `${appRoot}/src/${wiring.contextPath}`;
  if (!/^export const implement = implementFor</m.test(readText(tree, context))) {
    const text = readText(tree, context);
    const typeOnly = /^import type \{([^}]*)\} from '@academy\/service';$/m.exec(text);
    if (typeOnly) tree.write(context, text.replace(typeOnly[0], `import { implementFor, ${typeOnly[1].split(',').map((name) => `type ${name.trim()}`).filter((name) => name !== 'type ').join(', ')} } from '@academy/service';`));
    else addImport(tree, context, ['implementFor'], '@academy/service');
    tree.write(context, `${readText(tree, context).trimEnd()}\n\n/** Implements a contract with handlers that take this service's context (each feature's \`<feature>.routes.ts\`). */\nexport const implement = implementFor<${wiring.contextType}>();\n`);
  }

  const routes = `${appRoot}/src/routes.ts`;
  addImport(tree, routes, [`${v.propertyName}Routes`], `./${v.name}/${v.name}.routes.ts`);
  addImport(tree, routes, [v.family], '@academy/contracts');
  const joined = /(mountImplementations\(app, \w+, \[)([^\]]*)(\], \{ families: \[)([^\]]*)(\])/.exec(readText(tree, routes));
  if (joined) {
    editMatch(tree, routes, /(mountImplementations\(app, \w+, \[)([^\]]*)(\], \{ families: \[)([^\]]*)(\])/, (m) => `${m[1]}${m[2]}, ${v.propertyName}Routes${m[3]}${m[4]}, ${v.family}${m[5]}`);
  } else {
    addImport(tree, routes, ['mountImplementations'], '@academy/service');
    editMatch(tree, routes, /(export function registerRoutes\([^)]*\)[^{]*\{\n)([\s\S]*?)(^\}\n?)/m, (m) => `${m[1]}${m[2]}  mountImplementations(app, ${wiring.contextName}, [${v.propertyName}Routes], { families: [${v.family}] });\n${m[3]}`);
  }

  const entities = `${appRoot}/src/entities.ts`;
  addImport(tree, entities, [`${v.className}Entry`], `./${v.name}/${v.name}.entities.ts`);
  appendToArray(tree, entities, /export const entities/, `${v.className}Entry`);

  const migrations = `${appRoot}/src/migrations/index.ts`;
  const migration = `Migration${v.timestamp}_${v.snakeName}`;
  addImport(tree, migrations, [migration], `./${migration}.ts`);
  appendToArray(tree, migrations, /export const migrations/, migration);
}
