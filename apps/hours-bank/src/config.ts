import { loadConfig } from '@academy/kit';
import { baseConfigSchema } from '@academy/service';

export const ConfigSchema = baseConfigSchema({ port: 3002, database: 'hours_bank' });

export type Config = ReturnType<typeof ConfigSchema.parse>;

/** The only reader of process.env in this service. */
export const readConfig = (): Config => loadConfig(ConfigSchema);
