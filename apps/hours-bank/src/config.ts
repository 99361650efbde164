import { z } from 'zod';
import { loadConfig } from '@academy/kit';
import { privacySettings } from '@academy/privacy';
import { baseConfigSchema } from '@academy/service';

export const ConfigSchema = baseConfigSchema({ port: 3002, database: 'hours_bank' }).extend({
  /** Queue of the employee and school-course replicas; tests give each service instance its own. */
  REPLICAS_QUEUE: z.string().min(1).default('hours-bank.replicas'),
}).extend(privacySettings('hours-bank').shape);

export type Config = ReturnType<typeof ConfigSchema.parse>;

/** The only reader of process.env in this service. */
export const readConfig = (): Config => loadConfig(ConfigSchema);
