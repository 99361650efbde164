import { preset } from '../jest.preset.js';

// Renders and checks manifests and bundles: no test servers needed, so no global setup.
export default { ...preset, displayName: 'deploy', rootDir: '.', globalSetup: undefined, testTimeout: 120_000 };
