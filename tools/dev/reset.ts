// `npm run reset`: stops everything and wipes the dev data (databases, queues, caches, logs).
// The dev signing keys in .local/keys are kept.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { resetInfra, repoRoot } from '@academy/infra';

spawnSync(process.execPath, [path.join(repoRoot, 'tools/dev/stop.ts')], { stdio: 'inherit' });
await resetInfra('dev');
console.log('dev data wiped (.local/dev); the next `npm start` begins from an empty system');
