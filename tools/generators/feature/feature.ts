// `npx nx g @academy/tools:feature <name> --service=<service>`: one feature folder of the house's shape
// (/work/shared/STYLE.md, README "Adding a service / a feature"), its routes declared once in the
// contracts, its table's migration and a component test, all passing lint, typecheck and tests as generated.
import path from 'node:path';
import { generateFiles, names, type Tree } from '@nx/devkit';
import { addImport, appendToArray, checkName, editMatch, migrationTimestamp, readText, snakeCase, titleOf } from '../shared/edits.ts';

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
  const family = `${names(service).propertyName}Api`;
  if (!new RegExp(`export const ${family} = routeFamily\\(`).test(readText(tree, contract))) {
    throw new Error(`${contract} declares no ${family} (routeFamily): the feature's routes join that family`);
  }
  const prefix = /prefix: '([^']+)'/.exec(readText(tree, contract))?.[1] ?? `/api/v2/${service}`;

  const feature = names(name);
  const vars = {
    ...feature,
    name,
    service,
    serviceClassName: names(service).className,
    servicePropertyName: names(service).propertyName,
    title: titleOf(name),
    snakeName: snakeCase(name),
    table: `${snakeCase(name)}_entries`,
    // The feature named like its service answers at the family's prefix (payslips' payslips), another below it.
    path: name === service ? prefix : `${prefix}/${name}`,
    timestamp: migrationTimestamp(options.now ?? new Date()),
    tmpl: '',
  };
  generateFiles(tree, path.join(import.meta.dirname, 'files'), '.', vars);

  appendContract(tree, contract, family, vars);
  mount(tree, appRoot, vars);
}

function appendContract(tree: Tree, file: string, family: string, v: { className: string; propertyName: string; constantName: string; title: string; path: string }): void {
  addImport(tree, file, ['z'], 'zod');
  addImport(tree, file, ['Id', 'IdText', 'errorResponses', 'jsonContent'], './common.ts');
  const block = `
// ${v.title}: ${v.path}

export const ${v.className}EntryView = z.object({ id: Id, name: z.string(), createdAt: z.iso.datetime() });
export type ${v.className}EntryView = z.infer<typeof ${v.className}EntryView>;
export const Create${v.className}EntryBody = z.strictObject({ name: z.string().trim().min(1).max(120) });
export type Create${v.className}EntryBody = z.infer<typeof Create${v.className}EntryBody>;
const ${v.className}EntryParams = z.object({ id: IdText.meta({ description: '${v.title} entry id (positive integer)', example: '1' }) });

export const create${v.className}EntryRoute = ${family}.route({
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

export const read${v.className}EntryRoute = ${family}.route({
  method: 'get',
  path: '${v.path}/{id}',
  summary: 'Read a ${v.title.toLowerCase()} entry',
  request: { params: ${v.className}EntryParams },
  responses: {
    200: jsonContent(z.object({ data: ${v.className}EntryView }), 'The entry'),
    ...errorResponses({ 400: 'VALIDATION_ERROR on the id', 404: '${v.constantName}_ENTRY_NOT_FOUND' }),
  },
});
`;
  tree.write(file, readText(tree, file).trimEnd() + '\n' + block);
}

/** The feature's routes in routes.ts, its entity in entities.ts, its migration in migrations/index.ts. */
function mount(tree: Tree, appRoot: string, v: { name: string; className: string; propertyName: string; snakeName: string; timestamp: string }): void {
  const routes = `${appRoot}/src/routes.ts`;
  addImport(tree, routes, [`${v.propertyName}Routes`], `./${v.name}/${v.name}.routes.ts`);
  editMatch(tree, routes, /(export function registerRoutes\([^)]*\)[^{]*\{\n)([\s\S]*?)(^\}\n?)/m, (match) => `${match[1]}${match[2]}  ${v.propertyName}Routes(app, deps);\n${match[3]}`);

  const entities = `${appRoot}/src/entities.ts`;
  addImport(tree, entities, [`${v.className}Entry`], `./${v.name}/${v.name}.entities.ts`);
  appendToArray(tree, entities, /export const entities/, `${v.className}Entry`);

  const migrations = `${appRoot}/src/migrations/index.ts`;
  const migration = `Migration${v.timestamp}_${v.snakeName}`;
  addImport(tree, migrations, [migration], `./${migration}.ts`);
  appendToArray(tree, migrations, /export const migrations/, migration);
}
