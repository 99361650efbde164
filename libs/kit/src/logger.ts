import { pino, type Logger, type LevelWithSilent } from 'pino';

export type { Logger };

export function createLogger(service: string, level: LevelWithSilent = 'info'): Logger {
  return pino({
    name: service,
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: ['req.headers.authorization', 'req.headers["x-api-key"]', 'req.headers.cookie', '*.password', '*.refreshToken'], censor: '[redacted]' },
  });
}
