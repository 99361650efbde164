// One trace per request (tools/system/tracing.test.ts), the whole system exporting to an OTLP receiver:
// node --experimental-vm-modules --no-warnings=ExperimentalWarning node_modules/jest/bin/jest.js -c tools/system/jest.tracing.config.js
import { preset } from '../../jest.preset.js';

export default {
  ...preset,
  displayName: 'tracing',
  rootDir: '.',
  testMatch: ['<rootDir>/tracing.test.ts'],
  globalSetup: '<rootDir>/global-setup.ts',
  globalTeardown: '<rootDir>/global-teardown.ts',
  testTimeout: 60_000,
};
