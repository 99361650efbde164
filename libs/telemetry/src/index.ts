// For tests and tools; apps do not import this lib: their start command preloads ./register.ts.
export { settingsFromEnv, type TelemetrySettings } from './settings.ts';
export { BATCH_DEFAULTS, batchOptionsFromEnv, startTelemetry, withoutPoolPatches } from './sdk.ts';
export { samplerFromEnv } from './sampler.ts';
export { DroppingExporter } from './exporter.ts';
export { onlyInRecordedTraces } from './recorded-only.ts';
