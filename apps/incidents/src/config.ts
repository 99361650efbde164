import { z } from 'zod';
import { env, loadConfig } from '@academy/kit';
import { baseConfigSchema } from '@academy/service';

const isTimeZone = (value: string) => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return true;
  } catch {
    return false;
  }
};

export const ConfigSchema = baseConfigSchema({ port: 3003, database: 'incidents' }).extend({
  /** Queue of the employees replica (@academy/replicas); tests give each service instance its own. */
  REPLICAS_QUEUE: z.string().min(1).default('incidents.replicas'),
  /** Time zone of the working day: days of the history and report, absence deadlines. */
  WORK_TIME_ZONE: z.string().default('UTC').refine(isTimeZone, { error: 'must be an IANA time zone such as Europe/Madrid' }),
  /** ISO weekdays (1 = Monday … 7 = Sunday) on which an employee is expected to clock in. */
  WORKING_DAYS: env.list('1,2,3,4,5').pipe(z.array(z.string().regex(/^[1-7]$/, { error: 'must be weekdays 1–7' }).transform(Number))),
  /** An employee without a clock-in by this local time (HH:MM) plus the grace period is absent. */
  ABSENCE_DEADLINE: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: 'must be HH:MM' }).default('09:00'),
  ABSENCE_GRACE_MINUTES: z.coerce.number().int().min(0).max(720).default(30),
  /** A record still open this long is flagged (RECORD_OPEN_TOO_LONG). */
  OPEN_RECORD_LIMIT_HOURS: z.coerce.number().positive().max(168).default(12),
  /** The clock-out proposed for such a record: clock-in + this many hours (never past the check time). */
  PROPOSED_SHIFT_HOURS: z.coerce.number().positive().max(24).default(8),
  /** A clock-out this soon after the last one is a repeat (409, no incident), not a missing clock-in. */
  CLOCK_OUT_REPEAT_SECONDS: z.coerce.number().int().min(0).default(300),
  /** How often the scheduled check runs; 0 turns it off (tests run it by hand). */
  CHECK_INTERVAL_MS: z.coerce.number().int().min(0).default(60_000),
  /** Incident reads (detail, threads, my-list) stay cached this long. */
  CACHE_TTL_SECONDS: z.coerce.number().int().positive().default(24 * 3600),
  /** Prefix of every cache key (tests give each instance its own). */
  CACHE_KEY_PREFIX: z.string().min(1).default('incidents'),
  /** Where attachments are stored (the service's data folder). */
  FILES_DIR: z.string().min(1).default('.local/dev/incidents/files'),
  /** An upload whose body sends nothing for this long is answered 408 and its connection closed. */
  UPLOAD_IDLE_TIMEOUT_MS: z.coerce.number().int().positive().default(15_000),
});

export type Config = z.infer<typeof ConfigSchema>;

/** The only reader of process.env in this service. */
export const readConfig = (): Config => loadConfig(ConfigSchema);
