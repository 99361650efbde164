import { z } from 'zod';
import { env, loadConfig } from '@academy/kit';
import { baseConfigSchema } from '@academy/service';

export const ConfigSchema = baseConfigSchema({ port: 3004, database: 'notifications' }).extend({
  /** Where e-mail goes; in development the mail catcher started by `npm start`. */
  SMTP_URL: env.url('smtp://127.0.0.1:1025'),
  MAIL_FROM: z.string().default('Academy <no-reply@academy.local>'),
  PUSH_NOTIFICATIONS_API_KEY: z.string().min(16).default('dev-push-api-key-change-me'),
  /** Path of a Firebase service-account JSON; without it push messages are recorded, not sent. */
  FIREBASE_CREDENTIALS_FILE: z.string().optional(),
});

export type Config = z.infer<typeof ConfigSchema>;

/** The only reader of process.env in this service. */
export const readConfig = (): Config => loadConfig(ConfigSchema);
