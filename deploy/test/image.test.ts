import { existsSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { describe, expect, test } from '@jest/globals';
import { build } from 'esbuild';

const root = path.resolve(import.meta.dirname, '../..');
const APPS = ['gateway', 'academic', 'hours-bank', 'incidents', 'notifications'];
const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };

const packageOf = (specifier: string) => (specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]);
const isBuiltin = (specifier: string) => specifier.startsWith('node:') || builtinModules.includes(specifier.split('/')[0]);

/** The packages an app's bundle (as tools/build.ts makes it for the image) loads from node_modules at run time. */
async function runtimePackagesOf(app: string): Promise<string[]> {
  const result = await build({
    entryPoints: [path.join(root, 'apps', app, 'src/main.ts')],
    bundle: true,
    write: false,
    outdir: path.join(root, 'dist/deploy-test', app),
    platform: 'node',
    target: 'node22',
    format: 'esm',
    packages: 'external',
    metafile: true,
    logLevel: 'silent',
    plugins: [
      {
        name: 'bundle-workspace-libs',
        setup(b) {
          b.onResolve({ filter: /^@academy\// }, (args) => ({ path: path.join(root, 'libs', args.path.slice('@academy/'.length), 'src/index.ts') }));
        },
      },
    ],
  });
  const specifiers = Object.values(result.metafile.outputs).flatMap((output) => output.imports.filter((entry) => entry.external).map((entry) => entry.path));
  return [...new Set(specifiers.filter((specifier) => !isBuiltin(specifier)).map(packageOf))].sort();
}

describe('images', () => {
  test.each(APPS)('%s: everything its bundle loads at run time is a production dependency (the image installs with --omit=dev)', async (app) => {
    const packages = await runtimePackagesOf(app);
    expect(packages.length).toBeGreaterThan(3);
    expect(packages.filter((name) => !(name in manifest.dependencies))).toEqual([]);
  });

  test('the Dockerfile builds one image per app (SERVICE), installs production dependencies only and runs as a non-root user', () => {
    const dockerfile = readFileSync(path.join(root, 'Dockerfile'), 'utf8');
    const stages = dockerfile.split(/^(?=FROM )/m).filter((stage) => stage.startsWith('FROM '));
    const runtime = stages.at(-1)!;
    expect(runtime).toMatch(/^ARG SERVICE$/m);
    expect(runtime).toMatch(/COPY --from=build \/repo\/dist\/apps\/\$\{SERVICE\} /);
    const modulesFrom = /COPY --from=(\S+) \S*node_modules/.exec(runtime)?.[1];
    const modulesStage = stages.find((stage) => stage.match(/^FROM \S+ AS (\S+)/)?.[1] === modulesFrom);
    expect(modulesStage).toMatch(/npm ci --omit=dev/);
    // Numeric, so Kubernetes' runAsNonRoot can verify it; the manifests run as the same id.
    expect(runtime.match(/^USER (\S+)/m)?.[1]).toMatch(/^[1-9]\d*(:\d+)?$/);
    // The release's version and commit reach /version (libs/kit buildInfo).
    expect(runtime).toMatch(/^ARG APP_VERSION=/m);
    expect(runtime).toMatch(/^ARG APP_COMMIT=/m);
    expect(runtime).toMatch(/^ENV .*APP_VERSION=\$\{APP_VERSION\} APP_COMMIT=\$\{APP_COMMIT\}/m);
  });

  test("each app's image tag in the production overlay is its last release's version (contracts/releases.json)", () => {
    const releases = path.join(root, 'contracts/releases.json');
    const records = existsSync(releases) ? (JSON.parse(readFileSync(releases, 'utf8')) as Record<string, { version: string }>) : {};
    const overlay = readFileSync(path.join(root, 'deploy/kubernetes/overlays/production/kustomization.yaml'), 'utf8');
    for (const app of [...APPS, 'payslips']) {
      const tag = new RegExp(`\\{ name: academy/${app}, newName: [^,]+, newTag: ([^ }]+) \\}`).exec(overlay)?.[1];
      expect({ app, tag }).toEqual({ app, tag: records[app]?.version ?? '0.1.0' });
    }
  });
});
