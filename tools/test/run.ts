// `npm test`: starts (or reuses) the test servers once, runs every project's tests through Nx,
// then stops the servers it started. Extra arguments go to `nx run-many` (e.g. `-p hours-bank`).
import { spawn } from 'node:child_process';
import { ensureInfra, stopInfra } from '@academy/infra';

const started = Date.now();
const infra = await ensureInfra('test', (line) => console.log(`[test infra] ${line}`));
let code = 1;
try {
  code = await new Promise<number>((resolve) => {
    const args = ['run-many', '-t', 'test', '--outputStyle=stream-without-prefixes', ...process.argv.slice(2)];
    const child = spawn('nx', args, { stdio: 'inherit', env: { ...process.env, NX_DAEMON: 'false' } });
    child.on('exit', (exitCode, signal) => resolve(exitCode ?? (signal ? 1 : 0)));
  });
} finally {
  if (infra.started.length) await stopInfra('test', infra.started);
}
console.log(`\nnpm test: ${code === 0 ? 'PASSED' : 'FAILED'} in ${Math.round((Date.now() - started) / 1000)} s`);
process.exit(code);
