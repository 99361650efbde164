// The preload of every app: `node --import ./libs/telemetry/src/register.ts apps/<app>/src/main.ts`
// (the bundle's `--import ./dist/telemetry.js`). It runs before the app's first import, which is what
// lets the instrumentations patch pg, express, ioredis and http as the app loads them. With no
// OTEL_EXPORTER_OTLP_ENDPOINT it does nothing at all: no hook, no SDK, the API stays a no-op.
import { register } from 'node:module';
import { createAddHookMessageChannel } from 'import-in-the-middle';
import { settingsFromEnv, startTelemetry } from './sdk.ts';

const settings = settingsFromEnv();
if (settings.endpoint) {
  // ES modules are patched by import-in-the-middle's loader hook, for the modules the
  // instrumentations name only (the message channel tells the hook which), not every module.
  const { registerOptions, waitForAllMessagesAcknowledged } = createAddHookMessageChannel();
  register('import-in-the-middle/hook.mjs', import.meta.url, registerOptions);
  const shutdown = startTelemetry(settings);
  await waitForAllMessagesAcknowledged();
  // Whatever ends the process (the app's own shutdown hooks exit it), queued spans get a last flush.
  process.once('beforeExit', () => void shutdown?.());
}
