// Bundles one app into dist/<projectRoot>/main.js (dependencies stay in node_modules).
// Usage: node tools/build.ts apps/academic
import { existsSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const projectRoot = process.argv[2];
if (!projectRoot) {
  console.error('usage: node tools/build.ts <projectRoot>');
  process.exit(2);
}
const outdir = path.join('dist', projectRoot);
const entryPoints = ['src/main.ts', 'src/migrate.ts', 'src/seed.ts']
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
