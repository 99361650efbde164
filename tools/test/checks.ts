// `npm run checks`: every project's lint and typecheck targets, with the work they share done once (CI's first step).
//
// `nx run-many -t lint,typecheck` runs one ESLint and one tsc per project (21 of each): every tsc builds a program of
// its project plus every lib it imports, so the libs are parsed, bound and checked again in each project's program,
// and every ESLint loads its plugins and computes Nx's project graph again. Here:
// - typecheck: the projects whose tsconfig.json is only `extends` tsconfig.base.json and `include` (all but the
//   console) are checked in one tsc program over the union of their includes. A file's diagnostics depend only on
//   what it imports and on the global declarations (none of those projects declares any: no `declare global`,
//   `declare module` or script file; a clash would show as an error here, not hide one), so the one program reports
//   what the per-project programs report, each lib checked once. A tsconfig with options of its own (the console's
//   DOM lib, bundler resolution, JSX) keeps its own program, as does a typecheck command that is not `tsc -p <file>`.
// - lint: one ESLint over every project root whose lint command is `eslint <dir>` (the flat config is the root's,
//   the same for each), the others' commands as they are.
// Lint and typecheck run at once (2 processes); the step fails when either fails. The projects are read from their
// project.json files (a new project is included by being one), commands defaulting to nx.json's targetDefaults.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '@academy/infra';

interface Target {
  options?: { command?: string };
}
interface Project {
  root: string;
  targets: Record<string, Target | undefined>;
}

const BASE = path.join(repoRoot, 'tsconfig.base.json');
const OUT = path.join(repoRoot, 'dist', 'checks');

/** project.json files at the root's first two levels (apps/*, libs/*, tools, deploy), as Nx finds them. */
function projects(): Project[] {
  const found: Project[] = [];
  const skip = new Set(['node_modules', 'dist', '.git', '.local', '.nx']);
  const visit = (dir: string, depth: number) => {
    const file = path.join(repoRoot, dir, 'project.json');
    if (dir && existsSync(file)) found.push({ root: dir, targets: (JSON.parse(readFileSync(file, 'utf8')) as { targets?: Project['targets'] }).targets ?? {} });
    if (depth === 2) return;
    for (const entry of readdirSync(path.join(repoRoot, dir), { withFileTypes: true })) {
      if (entry.isDirectory() && !skip.has(entry.name) && !entry.name.startsWith('.')) visit(path.join(dir, entry.name), depth + 1);
    }
  };
  visit('', 0);
  return found.sort((a, b) => a.root.localeCompare(b.root));
}

const defaults = (JSON.parse(readFileSync(path.join(repoRoot, 'nx.json'), 'utf8')) as { targetDefaults: Record<string, Target> }).targetDefaults;

/** A target's command for a project, `{projectRoot}` filled in; undefined when the project has no such target. */
function command(project: Project, target: string): string | undefined {
  if (!(target in project.targets)) return undefined;
  const raw = project.targets[target]?.options?.command ?? defaults[target]?.options?.command;
  if (!raw) throw new Error(`${project.root}: no command for ${target}`);
  return raw.replaceAll('{projectRoot}', project.root);
}

const all = projects();
const commands: { name: string; line: string }[] = [];

// typecheck
const merged: string[] = [];
for (const project of all) {
  const line = command(project, 'typecheck');
  if (!line) continue;
  const match = /^tsc -p (\S+) --noEmit$/.exec(line);
  const config = match ? (JSON.parse(readFileSync(path.join(repoRoot, match[1]!), 'utf8')) as Record<string, unknown>) : undefined;
  const plain =
    config &&
    Object.keys(config).every((key) => key === 'extends' || key === 'include') &&
    path.resolve(repoRoot, path.dirname(match![1]!), String(config.extends)) === BASE &&
    Array.isArray(config.include);
  if (plain) {
    for (const include of config.include as string[]) merged.push(path.relative(OUT, path.join(repoRoot, path.dirname(match![1]!), include)));
  } else {
    commands.push({ name: `typecheck ${project.root}`, line });
  }
}
mkdirSync(OUT, { recursive: true });
const mergedConfig = path.join(OUT, 'tsconfig.json');
writeFileSync(mergedConfig, `${JSON.stringify({ extends: path.relative(OUT, BASE), include: merged }, null, 2)}\n`);
commands.unshift({ name: `typecheck (one program: ${merged.length} includes)`, line: `tsc -p ${path.relative(repoRoot, mergedConfig)} --noEmit` });

// lint
const lintDirs: string[] = [];
for (const project of all) {
  const line = command(project, 'lint');
  if (!line) continue;
  const match = /^eslint (\S+)$/.exec(line);
  if (match) lintDirs.push(match[1]!);
  else commands.push({ name: `lint ${project.root}`, line });
}
const lint = { name: `lint (one ESLint: ${lintDirs.length} projects)`, line: `eslint ${lintDirs.join(' ')}` };

/** Runs a command line with node_modules/.bin on the PATH; prints its output when it ends, with its time. */
function run({ name, line }: { name: string; line: string }): Promise<boolean> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(line, {
      cwd: repoRoot,
      shell: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, PATH: `${path.join(repoRoot, 'node_modules/.bin')}${path.delimiter}${process.env.PATH}` },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.on('close', (code) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      process.stdout.write(`--- ${name}: ${code === 0 ? 'ok' : `FAILED (exit ${code})`} in ${seconds} s\n> ${line}\n${output}`);
      resolve(code === 0);
    });
  });
}

/** The typecheck programs one after another, beside the lint: two processes at a time on 2 cores. */
async function serially(list: { name: string; line: string }[]): Promise<boolean> {
  let ok = true;
  for (const item of list) ok = (await run(item)) && ok;
  return ok;
}
const results = await Promise.all([run(lint), serially(commands)]);
const ok = results.every(Boolean);
console.log(ok ? 'checks: lint and typecheck passed' : 'checks: FAILED');
process.exit(ok ? 0 : 1);
