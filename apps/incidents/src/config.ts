import { loadConfig } from '@academy/kit';
import { baseConfigSchema } from '@academy/service';

export const ConfigSchema = baseConfigSchema({ port: 3003, database: 'incidents' });

export type Config = ReturnType<typeof ConfigSchema.parse>;

/** The only reader of process.env in this service. */
export const readConfig = (): Config => loadConfig(ConfigSchema);
