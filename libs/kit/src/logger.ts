import { pino, type DestinationStream, type Logger, type LevelWithSilent } from 'pino';
import { traceLogFields } from './telemetry.ts';

export type { Logger };

/** Redacted in every service's logs: credentials, and tax ids (employees' DNI/NIE). */
const ALWAYS_REDACTED = ['password', 'refreshToken', 'taxId'];
/** How many objects deep a redacted field is found (`event.data.employee.taxId` is three). */
const REDACT_DEPTH = 3;

/** pino's redaction paths of `fields` (JSON names such as `clockIn`) at the top level and up to `REDACT_DEPTH` objects deep. */
export function redactPaths(fields: readonly string[]): string[] {
  for (const field of fields) if (!/^[A-Za-z_$][\w$]*$/.test(field)) throw new Error(`redactPaths: "${field}" is not a field name (letters, digits, _ or $)`);
  return [...new Set(fields)].flatMap((field) => Array.from({ length: REDACT_DEPTH + 1 }, (_, depth) => `${'*.'.repeat(depth)}${field}`));
}

export interface LoggerOptions {
  /**
   * Field names that are personal data, redacted at any depth up to three objects: a service passes
   * the fields its privacy providers declare personal (`personalFieldNames` of @academy/privacy, via
   * its `ServiceDefinition.personalFields`).
   */
  redact?: readonly string[];
}

/** `destination` defaults to stdout (tests pass a stream to read what was logged). */
export function createLogger(service: string, level: LevelWithSilent = 'info', destination?: DestinationStream, { redact = [] }: LoggerOptions = {}): Logger {
  const options = {
    name: service,
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    // A line written inside a span names it (`trace_id`, `span_id`): the logs of one trace join up.
    mixin: traceLogFields,
    // Personal data (tax ids, and every field the service's providers declare personal) is never in a log, at whatever depth it is passed.
    redact: {
      paths: ['req.headers.authorization', 'req.headers["x-api-key"]', 'req.headers.cookie', ...redactPaths([...ALWAYS_REDACTED, ...redact])],
      // A declared name is redacted wherever it is, a logged error's own fields included (declare `message` and errors lose their text): providers name fields for what they are (`text`, `fullName`).
      censor: '[redacted]',
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
