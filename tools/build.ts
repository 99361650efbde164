// Bundles one app into dist/<projectRoot>/main.js (dependencies stay in node_modules).
// Usage: node tools/build.ts apps/academic
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const projectRoot = process.argv[2];
if (!projectRoot) {
  console.error('usage: node tools/build.ts <projectRoot>');
  process.exit(2);
}
const outdir = path.join('dist', projectRoot);
// Worker threads' entry points (`src/*.worker.ts`) are bundled beside main.js, where the app finds them.
const workers = existsSync(path.join(projectRoot, 'src')) ? readdirSync(path.join(projectRoot, 'src')).filter((name) => name.endsWith('.worker.ts')).map((name) => `src/${name}`) : [];
const entryPoints = ['src/main.ts', 'src/migrate.ts', 'src/seed.ts', ...workers]
  .map((entry) => path.join(projectRoot, entry))
  .filter((entry) => existsSync(entry));
await build({
  entryPoints,
  outdir,
  bundle: true,
  platform: 'node',
  target: 'node22',
  format: 'esm',
  sourcemap: true,
  packages: 'external',
  // workspace libs (@academy/*) are TypeScript sources: bundle them in
  plugins: [
    {
      name: 'bundle-workspace-libs',
      setup(b) {
        b.onResolve({ filter: /^@academy\// }, (args) => ({ path: path.resolve('libs', args.path.slice('@academy/'.length), 'src/index.ts') }));
      },
    },
  ],
  logLevel: 'info',
});
// The tracing preload (`node --import ./dist/telemetry.js dist/main.js`): its own file, loaded before
// main.js; the SDK in a chunk of its own, loaded only when tracing is on.
await build({
  entryPoints: [{ in: 'libs/telemetry/src/register.ts', out: 'telemetry' }],
  outdir,
  splitting: true,
  chunkNames: 'telemetry-[name]-[hash]',
  bundle: true,
  platform: 'node',
  target: 'node22',
  format: 'esm',
  sourcemap: true,
  packages: 'external',
  logLevel: 'info',
});
