// Shared Jest settings: TypeScript through SWC, native ES modules (several dependencies are
// ESM-only), and the test servers started or reused once per run.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(fileURLToPath(import.meta.url));

export const preset = {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  transform: {
    '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2023', parser: { syntax: 'typescript' } }, module: { type: 'es6' } }],
  },
  moduleFileExtensions: ['ts', 'js', 'json'],
  testMatch: ['<rootDir>/{src,test}/**/*.test.ts'],
  // `npm test -- --without-clock-files` (tools/test/run.ts, CI) leaves out the files test:clocks runs
  testPathIgnorePatterns: ['/node_modules/', ...(process.env.ACADEMY_TEST_IGNORE ? process.env.ACADEMY_TEST_IGNORE.split('\n') : [])],
  globalSetup: path.join(root, 'libs/testing/src/global-setup.ts'),
  // Jest's runtime with V8's code cache of each module kept between test files (tools/test/code-cache-runtime.cjs)
  runtime: path.join(root, 'tools/test/code-cache-runtime.cjs'),
  testTimeout: 30_000,
  // Tests run in a random order within each file, so one that depends on another's leftovers fails; Jest prints the
  // seed ("Seed: …"), and `--seed=<n>` replays that order.
  randomize: true,
  showSeed: true,
  // No forceExit: a suite that leaves a socket, timer or child open keeps Jest from exiting, so the
  // leak shows (run with --detectOpenHandles to see where) and gets closed in the suite's afterAll.
};
