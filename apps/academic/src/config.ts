import { z } from 'zod';
import { loadConfig } from '@academy/kit';
import { baseConfigSchema, type BaseConfig } from '@academy/service';

/** Token lifetimes of the logins served here; tokens are signed with the first of JWT_KEY_IDS. */
export const AuthSettingsSchema = z.object({
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().positive().default(15 * 60),
  REFRESH_TOKEN_TTL_SECONDS: z.coerce.number().int().positive().default(30 * 24 * 3600),
  /** Failed logins in a row for one (e-mail, IP) before that pair is blocked for LOGIN_FAILURE_BLOCK_SECONDS. */
  LOGIN_MAX_CONSECUTIVE_FAILURES: z.coerce.number().int().positive().default(5),
  LOGIN_FAILURE_BLOCK_SECONDS: z.coerce.number().int().positive().default(15 * 60),
  /** Failed logins from one IP in a day (any e-mail) before the IP is blocked for LOGIN_IP_BLOCK_SECONDS. */
  LOGIN_MAX_FAILURES_PER_IP_PER_DAY: z.coerce.number().int().positive().default(100),
  LOGIN_IP_BLOCK_SECONDS: z.coerce.number().int().positive().default(24 * 3600),
  /** Redis key prefix of the login counters (the database name is appended). */
  LOGIN_LIMIT_KEY_PREFIX: z.string().min(1).default('academic:login'),
  /**
   * Proxies whose X-Forwarded-For is believed (Express "trust proxy"): the login limits key by the
   * client address the gateway passes on. Loopback (`npm start`) and private networks (the gateway
   * container under docker compose); academic is never exposed beyond them.
   */
  TRUST_PROXY: z.string().min(1).default('loopback, uniquelocal'),
});
export type AuthSettings = z.infer<typeof AuthSettingsSchema>;

export const ConfigSchema = baseConfigSchema({ port: 3001, database: 'academic' }).extend(AuthSettingsSchema.shape);

export type Config = BaseConfig & AuthSettings;

/** The only reader of process.env in this service. */
export const readConfig = (): Config => loadConfig(ConfigSchema);
