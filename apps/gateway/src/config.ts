import { z } from 'zod';
import { env, loadConfig } from '@academy/kit';

export const ConfigSchema = z.object({
  PORT: env.port(3000),
  HOST: z.string().default('127.0.0.1'),
  LOG_LEVEL: env.logLevel(),
  ACADEMIC_URL: env.url('http://127.0.0.1:3001'),
  HOURS_BANK_URL: env.url('http://127.0.0.1:3002'),
  INCIDENTS_URL: env.url('http://127.0.0.1:3003'),
  NOTIFICATIONS_URL: env.url('http://127.0.0.1:3004'),
  REDIS_URL: env.url('redis://127.0.0.1:6379'),
  JWT_KEYS_DIR: z.string().min(1).default('.local/keys'),
  JWT_KEY_IDS: env.list('dev-1'),
  JWT_ISSUER: z.string().min(1).default('academy'),
  JWT_AUDIENCE: z.string().min(1).default('academy-api'),
  BODY_LIMIT: z.string().default('100kb'),
});

export type Config = z.infer<typeof ConfigSchema>;

/** The only reader of process.env in the gateway. */
export const readConfig = (): Config => loadConfig(ConfigSchema);
