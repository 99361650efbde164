import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { env, loadConfig } from '@academy/kit';
import { jwtConfigShape } from '@academy/auth';
import { Locale } from '@academy/contracts';

const perMinute = (fallback: number) => z.coerce.number().int().positive().default(fallback);

export const ConfigSchema = z.object({
  PORT: env.port(3000),
  HOST: z.string().default('127.0.0.1'),
  LOG_LEVEL: env.logLevel(),
  ACADEMIC_URL: env.url('http://127.0.0.1:3001'),
  HOURS_BANK_URL: env.url('http://127.0.0.1:3002'),
  INCIDENTS_URL: env.url('http://127.0.0.1:3003'),
  NOTIFICATIONS_URL: env.url('http://127.0.0.1:3004'),
  PAYSLIPS_URL: env.url('http://127.0.0.1:3005'),
  REDIS_URL: env.url('redis://127.0.0.1:6379'),
  ...jwtConfigShape,
  /** How long a verified token is remembered (never past its exp). 0 verifies every request. */
  TOKEN_CACHE_MS: z.coerce.number().int().min(0).default(30_000),
  /** How long a token's "session not ended" answer is kept before Redis is asked again: a logout is honoured within this. */
  TOKEN_REVOCATION_CHECK_MS: z.coerce.number().int().min(0).default(2000),
  /** Origins allowed by CORS, comma-separated; empty allows none (same-origin and non-browser clients only). */
  CORS_ORIGINS: env.list('http://localhost:5173,http://127.0.0.1:5173'),
  /** Largest request body accepted (by Content-Length) before anything is proxied. */
  BODY_LIMIT_BYTES: z.coerce.number().int().positive().default(100 * 1024),
  /**
   * Largest request header block: an oversized token up to this is the route's JSON 401, past it a
   * JSON 431 in the route's style. Node's own parser limit is 64 KB above it (past that, a JSON 431
   * in the default style: the parser gives up before the path is known).
   */
  MAX_HEADER_BYTES: z.coerce.number().int().positive().default(128 * 1024),
  /** An upstream silent for this long is a 504. */
  UPSTREAM_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  /** The same for Socket.IO long-polling, which the service holds open up to its ping interval (25 s). */
  LONG_POLL_TIMEOUT_MS: z.coerce.number().int().positive().default(60_000),
  RATE_LIMIT_IP_PER_MINUTE: perMinute(600),
  RATE_LIMIT_USER_PER_MINUTE: perMinute(300),
  /** Prefix of the Redis counters shared by every gateway instance. */
  RATE_LIMIT_KEY_PREFIX: z.string().min(1).default('gateway:rl'),
  /**
   * Proxies in front of the gateway whose X-Forwarded-For is believed (Express "trust proxy"), so
   * per-IP limits key by the client and not by the proxy: loopback for `npm start`; behind a
   * Kubernetes ingress controller its pods' private addresses (`uniquelocal`).
   */
  TRUST_PROXY: z.string().min(1).default('loopback'),
  /** The built console served at `/` (`npx nx build console`). */
  CONSOLE_DIR: z.string().min(1).default(fileURLToPath(new URL('../../../dist/apps/console', import.meta.url))),
  /** The academy's language and time zone, told to the console with its session (the same values as the services'). */
  ACADEMY_LOCALE: Locale.default('es'),
  ACADEMY_TIME_ZONE: env.timeZone('Europe/Madrid'),
});

export type Config = z.infer<typeof ConfigSchema>;

/** The only reader of process.env in the gateway. */
export const readConfig = (): Config => loadConfig(ConfigSchema);
