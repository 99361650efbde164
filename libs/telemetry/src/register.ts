// The preload of every app: `node --import ./libs/telemetry/src/register.ts apps/<app>/src/main.ts`
// (the bundle's `--import ./dist/telemetry.js`). It runs before the app's first import, which is what
// lets the instrumentations patch http and pg as the app loads them. With no
// OTEL_EXPORTER_OTLP_ENDPOINT it does nothing at all: no SDK, the API stays a no-op.
//
// No ES-module loader hook (import-in-the-middle): the patches go through require-in-the-middle,
// which catches node:http and pg's own `require`s of its client. The hook, which routes every module
// load of the process through a loader thread, made six services starting at once on this loaded
// machine miss their 120 s readiness in the system test (academic's import: 6.3 s without, 8.5 s
// with, alone). express and ioredis, imported by ES modules, are therefore not patched: the request
// span is named by kit's request front (`GET /api/v2/...` by route) instead.
//
// The SDK is imported only when tracing is on: loading it costs seconds at start on a busy machine
// (`node --import register.ts -e 0`: 7 s with it loaded, the same as plain node without).
import { settingsFromEnv } from './settings.ts';

const settings = settingsFromEnv();
if (settings.endpoint) {
  const { startTelemetry } = await import('./sdk.ts');
  const shutdown = startTelemetry(settings);
  // Whatever ends the process (the app's own shutdown hooks flush first), queued spans get a last flush.
  process.once('beforeExit', () => void shutdown?.());
}
