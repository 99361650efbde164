import { pino, type DestinationStream, type Logger, type LevelWithSilent } from 'pino';
import { traceLogFields } from './telemetry.ts';

export type { Logger };

/** `destination` defaults to stdout (tests pass a stream to read what was logged). */
export function createLogger(service: string, level: LevelWithSilent = 'info', destination?: DestinationStream): Logger {
  const options = {
    name: service,
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    // A line written inside a span names it (`trace_id`, `span_id`): the logs of one trace join up.
    mixin: traceLogFields,
    // Tax ids (employees' DNI/NIE) are personal data: never in a log, at whatever depth they are passed.
    redact: { paths: ['req.headers.authorization', 'req.headers["x-api-key"]', 'req.headers.cookie', '*.password', '*.refreshToken', 'taxId', '*.taxId', '*.*.taxId', '*.*.*.taxId'], censor: '[redacted]' },
  };
  return destination ? pino(options, destination) : pino(options);
}
