import { z } from 'zod';
import { loadConfig } from '@academy/kit';
import { baseConfigSchema, type BaseConfig } from '@academy/service';

/** Token lifetimes of the logins served here; tokens are signed with the first of JWT_KEY_IDS. */
export const AuthSettingsSchema = z.object({
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().positive().default(15 * 60),
  REFRESH_TOKEN_TTL_SECONDS: z.coerce.number().int().positive().default(30 * 24 * 3600),
});
export type AuthSettings = z.infer<typeof AuthSettingsSchema>;

export const ConfigSchema = baseConfigSchema({ port: 3001, database: 'academic' }).extend(AuthSettingsSchema.shape);

export type Config = BaseConfig & AuthSettings;

/** The only reader of process.env in this service. */
export const readConfig = (): Config => loadConfig(ConfigSchema);
