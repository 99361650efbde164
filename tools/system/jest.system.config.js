// `npm run test:system`: the journeys against the whole system (see tools/system/README.md).
import { preset } from '../../jest.preset.js';

export default {
  ...preset,
  displayName: 'system',
  rootDir: '.',
  testMatch: ['<rootDir>/journeys.test.ts', '<rootDir>/privacy.system.test.ts'],
  globalSetup: '<rootDir>/global-setup.ts',
  globalTeardown: '<rootDir>/global-teardown.ts',
  testTimeout: 60_000,
};
