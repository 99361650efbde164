import { isTimeZone } from '@academy/contracts';
import { z } from 'zod';

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Parses environment variables with a zod object schema, once, at start. Fails fast with one line
 * per missing or bad variable, naming it.
 */
export function loadConfig<S extends z.ZodObject>(schema: S, env: NodeJS.ProcessEnv = process.env): z.infer<S> {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const variable = issue.path.join('.') || '(environment)';
    const value = env[String(issue.path[0])];
    return value === undefined ? `${variable} is missing` : `${variable} is invalid: ${issue.message}`;
  });
  throw new ConfigError(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
}

/** Shared variable types, so every service reads them the same way. */
export const env = {
  /** An IANA time zone such as Europe/Madrid. */
  timeZone: (fallback: string) => z.string().default(fallback).refine(isTimeZone, { error: 'must be an IANA time zone such as Europe/Madrid' }),
  port: (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback),
  url: (fallback: string) => z.url().default(fallback),
  logLevel: () => z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  bool: (fallback: boolean) =>
    z
      .enum(['true', 'false', '1', '0'])
      .default(fallback ? 'true' : 'false')
      .transform((value) => value === 'true' || value === '1'),
  list: (fallback: string) =>
    z
      .string()
      .default(fallback)
      .transform((value) => value.split(',').map((item) => item.trim()).filter(Boolean)),
};
