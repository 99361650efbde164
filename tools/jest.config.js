// Tests of the tools themselves (the supervisor of `npm start`, the generators against an in-memory tree); the system profiles have their own
// configs in tools/system. Only the contracts tests use a test server (PostgreSQL: test:compat's schema check), which `npm test` starts.
import { preset } from '../jest.preset.js';

export default { ...preset, displayName: 'tools', rootDir: '.', testMatch: ['<rootDir>/dev/test/**/*.test.ts', '<rootDir>/generators/test/**/*.test.ts', '<rootDir>/contracts/test/**/*.test.ts', '<rootDir>/eslint/test/**/*.test.ts'], globalSetup: undefined };
