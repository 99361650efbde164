import { z } from 'zod';
import { env, loadConfig } from '@academy/kit';
import { baseConfigSchema } from '@academy/service';
import { Locale } from '@academy/contracts';
import { privacySettings } from '@academy/privacy';

const positive = (fallback: number) => z.coerce.number().int().positive().default(fallback);

export const ConfigSchema = baseConfigSchema({ port: 3004, database: 'notifications' }).extend({
  /** Where e-mail goes; in development the mail catcher started by `npm start`. */
  SMTP_URL: env.url('smtp://127.0.0.1:1025'),
  MAIL_FROM: z.string().default('Academy <no-reply@academy.local>'),
  /** The academy's app, linked from e-mails (a payslip mail links to `<APP_URL>/payslips`). */
  APP_URL: env.url('http://127.0.0.1:3000'),
  /** The language of guardians' mails and of anyone whose login chose none. */
  ACADEMY_LOCALE: Locale.default('es'),
  /** The academy's time zone: instants in notifications are written as its clocks show them. */
  ACADEMY_TIME_ZONE: env.timeZone('Europe/Madrid'),
  /** Connections of the pooled SMTP transport. */
  SMTP_MAX_CONNECTIONS: positive(5),
  /** Attempts of one e-mail before it is parked (status `parked`, visible in the deliveries listing). */
  MAIL_MAX_ATTEMPTS: positive(8),
  /** Backoff of a failed e-mail: base doubles per attempt, up to the cap. */
  MAIL_RETRY_BASE_MS: positive(5_000),
  MAIL_RETRY_MAX_MS: positive(15 * 60_000),
  /** How often the mail worker looks for due deliveries (it is also woken after each event). */
  MAIL_POLL_MS: positive(1_000),
  /** The gateway as mail readers reach it: guardians' unsubscribe links point at `<PUBLIC_API_URL>/api/v2/notifications/unsubscribe`. */
  PUBLIC_API_URL: env.url('http://127.0.0.1:3000'),
  /** Key of the unsubscribe links' HMAC-SHA256 signature (every instance of a deployment shares it). */
  UNSUBSCRIBE_SECRET: z.string().min(32).default('dev-unsubscribe-secret-change-me-0123456789'),
  /** How long an unsubscribe link stays valid after its mail was written. */
  UNSUBSCRIBE_TOKEN_DAYS: positive(90),
  /** How often pushes held for quiet hours are looked for (and sent once theirs end); 0 turns the sender off (tests run it by hand). */
  HELD_PUSH_POLL_MS: z.coerce.number().int().min(0).default(60_000),
  PUSH_NOTIFICATIONS_API_KEY: z.string().min(16).default('dev-push-api-key-change-me'),
  /** Path of a Firebase service-account JSON; without it push messages are recorded, not sent. */
  FIREBASE_CREDENTIALS_FILE: z.string().min(1).optional(),
  /** Device tokens unseen (not registered again, not sent to successfully) for this long are pruned. */
  TOKEN_RETENTION_DAYS: positive(270),
  /**
   * Queues of the service; tests give each instance its own. The e-mail queue was called
   * `notifications.block-approved` when approvals were its only events (see the README to move a deployment).
   */
  EMAIL_QUEUE: z.string().min(1).default('notifications.email'),
  REALTIME_QUEUE: z.string().min(1).default('notifications.incidents'),
  /** Redis stream and key prefix of the Socket.IO adapter (every instance of one deployment shares them). */
  SOCKET_STREAM: z.string().min(1).default('notifications:socket.io'),
  /** How long the adapter's XREAD blocks; shorter makes shutdown quicker. */
  SOCKET_STREAM_BLOCK_MS: positive(1_000),
  /** How often connected sockets' sessions are checked against revocations (logout ends them). */
  SOCKET_SESSION_CHECK_MS: positive(30_000),
}).extend(privacySettings('notifications').shape);

export type Config = z.infer<typeof ConfigSchema>;

/** The only reader of process.env in this service. */
export const readConfig = (): Config => loadConfig(ConfigSchema);
