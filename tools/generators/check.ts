// `npm run test:generators`: runs `nx g @academy/tools:feature` where people use it, on every existing
// service and on a freshly generated one, in a scratch copy of the working tree (the repository is
// left as it is), then lints and typechecks what it touched and runs the generated tests. Prints the
// time of each step. `--all` runs the generated test of every service (one by default, to keep CI
// short); `--keep` leaves the scratch copy for a look.
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FsTree, flushChanges } from 'nx/src/generators/tree';
import type FeatureGenerator from './feature/feature.ts';

const repo = path.resolve(import.meta.dirname, '../..');
const keep = process.argv.includes('--keep');
const all = process.argv.includes('--all');

/** The services a feature is generated into (each a feature of its own name), and the service generated from scratch. */
const SERVICES = ['academic', 'hours-bank', 'incidents', 'notifications', 'payslips'];
const FRESH = 'gen-sample';
const featureOf = (service: string) => `${service}-sample`;

const started = performance.now();
const seconds = (since: number) => ((performance.now() - since) / 1000).toFixed(1);

async function step(title: string, command: string, args: string[], cwd: string): Promise<void> {
  const at = performance.now();
  console.log(`\n=== ${title}`);
  const code = await new Promise<number>((resolve) => {
    const child = spawn(command, args, { cwd, stdio: 'inherit', env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', ACADEMY_LOCAL_DIR: process.env.ACADEMY_LOCAL_DIR ?? path.join(repo, '.local'), PATH: `${path.join(cwd, 'node_modules/.bin')}:${process.env.PATH}` } });
    child.on('close', (status) => resolve(status ?? 1));
  });
  console.log(`--- ${title}: ${code === 0 ? 'ok' : `FAILED (exit ${code})`} in ${seconds(at)} s`);
  if (code !== 0) throw new Error(`${title} failed`);
}

/** The working tree's files (tracked and untracked, not ignored) and a node_modules whose @academy links point into the copy. */
function scratchCopy(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'generators-'));
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: repo, encoding: 'utf8' }).split('\0').filter(Boolean);
  for (const file of files) {
    const from = path.join(repo, file);
    if (!existsSync(from)) continue; // deleted in the working tree
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    cpSync(from, path.join(dir, file), { verbatimSymlinks: true });
  }
  const modules = path.join(dir, 'node_modules');
  mkdirSync(path.join(modules, '@academy'), { recursive: true });
  for (const entry of readdirSync(path.join(repo, 'node_modules'))) {
    if (entry !== '@academy') symlinkSync(path.join(repo, 'node_modules', entry), path.join(modules, entry));
  }
  for (const entry of readdirSync(path.join(repo, 'node_modules/@academy'))) {
    symlinkSync(readlinkSync(path.join(repo, 'node_modules/@academy', entry)), path.join(modules, '@academy', entry));
  }
  return dir;
}

const dir = scratchCopy();
console.log(`scratch copy: ${dir} (${seconds(started)} s)`);
let failed = false;
try {
  const nx = path.join(dir, 'node_modules/.bin/nx');
  await step(`nx g @academy/tools:service ${FRESH}`, nx, ['g', '@academy/tools:service', FRESH, '--no-interactive'], dir);
  await step(`nx g @academy/tools:feature ${featureOf(FRESH)} --service=${FRESH}`, nx, ['g', '@academy/tools:feature', featureOf(FRESH), `--service=${FRESH}`, '--no-interactive'], dir);
  // The existing services in-process (what \`nx g\` runs, on Nx's tree of the copy, without a CLI start each): the copy's generator.
  const at = performance.now();
  const { default: featureGenerator } = (await import(path.join(dir, 'tools/generators/feature/feature.ts'))) as { default: typeof FeatureGenerator };
  const tree = new FsTree(dir, false);
  for (const service of SERVICES) await featureGenerator(tree, { name: featureOf(service), service });
  flushChanges(dir, tree.listChanges());
  console.log(`\n=== :feature on ${SERVICES.join(', ')}: ok in ${seconds(at)} s`);
  const apps = [...SERVICES, FRESH].map((service) => `apps/${service}`);
  await step('lint (the services and the contracts)', path.join(dir, 'node_modules/.bin/eslint'), [...apps, 'libs/contracts'], dir);
  // One program over the six apps (each app's tsconfig is the base one over its src/ and test/): the libraries are checked once.
  writeFileSync(path.join(dir, 'tsconfig.generators.json'), JSON.stringify({ extends: './tsconfig.base.json', include: apps.flatMap((app) => [`${app}/src/**/*.ts`, `${app}/test/**/*.ts`]) }));
  await step('typecheck (the services)', path.join(dir, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.generators.json', '--noEmit'], dir);
  // The generated tests start a service each (migrations included): by default one, notifications (whose mountImplementations
  // call carries options over several lines, so the feature gets a call of its own in routes.ts); `--all` runs all six.
  const tested = all ? [...SERVICES, FRESH] : ['notifications'];
  const projects = tested.flatMap((service) => ['--projects', `apps/${service}/jest.config.js`]);
  await step(`the generated tests (${tested.join(', ')})`, process.execPath, ['--experimental-vm-modules', '--no-warnings=ExperimentalWarning', 'node_modules/jest/bin/jest.js', ...projects, '--testPathPatterns', '/test/[a-z-]+-sample/'], dir);
} catch (error) {
  failed = true;
  console.error(`\n${(error as Error).message}`);
} finally {
  if (keep || failed) console.log(`scratch copy left in ${dir}`);
  else rmSync(dir, { recursive: true, force: true });
}
console.log(`\ntest:generators: ${failed ? 'FAILED' : 'ok'} in ${seconds(started)} s`);
process.exit(failed ? 1 : 0);
