// The preload of every app: `node --import ./libs/telemetry/src/register.ts apps/<app>/src/main.ts`
// (the bundle's `--import ./dist/telemetry.js`). It runs before the app's first import, which is what
// lets the instrumentations patch http, pg, ioredis (and express, TRACE_EXPRESS=true) as the app loads them. With no
// OTEL_EXPORTER_OTLP_ENDPOINT it does nothing at all: no SDK, no hook, the API stays a no-op.
//
// ioredis and express are imported by our ES modules, which require-in-the-middle does not see: an
// ES-module loader hook (import-in-the-middle) lets their instrumentations patch them. It is the
// synchronous one (`module.registerHooks`, in the app's thread, Node >= 22.22.3) and intercepts only
// those two packages. The asynchronous `module.register` hook, which routes every module load through a
// loader thread, was measured and refused: academic's import took 2.3 times as long (README).
// TRACE_ESM_HOOK=false, or a Node without synchronous hooks, leaves them unpatched.
//
// The SDK is imported only when tracing is on: loading it costs seconds at start on a busy machine
// (`node --import register.ts -e 0`: 7 s with it loaded, the same as plain node without).
import { esmInstrumented, settingsFromEnv } from './settings.ts';

const settings = settingsFromEnv();
if (settings.endpoint) {
  if (settings.esmHook) {
    const hooks = await import('import-in-the-middle/register-hooks.mjs');
    if (hooks.supportsSyncHooks()) hooks.register({ include: esmInstrumented(settings) });
  }
  const { startTelemetry } = await import('./sdk.ts');
  const shutdown = startTelemetry(settings);
  // Whatever ends the process (the app's own shutdown hooks flush first), queued spans get a last flush.
  process.once('beforeExit', () => void shutdown?.());
}
