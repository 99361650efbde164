// `npm run test:replicas`: two instances of every service and two gateways (see tools/system/README.md).
import { preset } from '../../jest.preset.js';

export default {
  ...preset,
  displayName: 'replicas',
  rootDir: '.',
  testMatch: ['<rootDir>/replicas.test.ts'],
  globalSetup: '<rootDir>/global-setup.ts',
  globalTeardown: '<rootDir>/global-teardown.ts',
  testTimeout: 120_000,
};
