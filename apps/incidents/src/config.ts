import { z } from 'zod';
import { env, loadConfig } from '@academy/kit';
import { privacySettings } from '@academy/privacy';
import { baseConfigSchema } from '@academy/service';

export const ConfigSchema = baseConfigSchema({ port: 3003, database: 'incidents' }).extend({
  /** Queue of the employees replica (@academy/replicas); tests give each service instance its own. */
  REPLICAS_QUEUE: z.string().min(1).default('incidents.replicas'),
  /**
   * The academy's time zone (IANA), shared with academic: the days of the history, the report and
   * the timetable, absence deadlines. `WORK_TIME_ZONE`, its former name, is read when it is unset.
   */
  ACADEMY_TIME_ZONE: env.timeZone('Europe/Madrid'),
  /**
   * Who is expected at work: `timetable`, an employee with a class that day, by its start plus the
   * grace; `every-working-day`, every active employee on WORKING_DAYS by ABSENCE_DEADLINE plus the grace.
   */
  ABSENCE_RULE: z.enum(['timetable', 'every-working-day']).default('timetable'),
  /** ISO weekdays (1 = Monday … 7 = Sunday) on which an employee is expected to clock in (`every-working-day`). */
  WORKING_DAYS: env.list('1,2,3,4,5').pipe(z.array(z.string().regex(/^[1-7]$/, { error: 'must be weekdays 1–7' }).transform(Number))),
  /** `every-working-day`: an employee without a clock-in by this local time (HH:MM) plus the grace period is absent. */
  ABSENCE_DEADLINE: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: 'must be HH:MM' }).default('09:00'),
  /** After a class's start (or the deadline): no clock-in by then is an absence, a first clock-in after it is late. */
  ABSENCE_GRACE_MINUTES: z.coerce.number().int().min(0).max(720).default(30),
  /** A record still open this long is flagged (RECORD_OPEN_TOO_LONG). */
  OPEN_RECORD_LIMIT_HOURS: z.coerce.number().positive().max(168).default(12),
  /** The clock-out proposed for such a record: clock-in + this many hours (never past the check time). */
  PROPOSED_SHIFT_HOURS: z.coerce.number().positive().max(24).default(8),
  /** A clock-out this soon after the last one is a repeat (409, no incident), not a missing clock-in. */
  CLOCK_OUT_REPEAT_SECONDS: z.coerce.number().int().min(0).default(300),
  /** How often the scheduled check runs; 0 turns it off (tests run it by hand). */
  CHECK_INTERVAL_MS: z.coerce.number().int().min(0).default(60_000),
  /** How often the time records an erasure kept are looked at for deletion (their day come); 0 turns it off. */
  HOUSEKEEPING_INTERVAL_MS: z.coerce.number().int().min(0).default(3_600_000),
  /** Incident reads (detail, threads, my-list) stay cached this long. */
  CACHE_TTL_SECONDS: z.coerce.number().int().positive().default(24 * 3600),
  /** Prefix of every cache key (tests give each instance its own). */
  CACHE_KEY_PREFIX: z.string().min(1).default('incidents'),
  /** Where attachments are stored (the service's data folder). */
  FILES_DIR: z.string().min(1).default('.local/dev/incidents/files'),
  /** An upload whose body sends nothing for this long is answered 408 and its connection closed. */
  UPLOAD_IDLE_TIMEOUT_MS: z.coerce.number().int().positive().default(15_000),
}).extend(privacySettings('incidents').shape);

export type Config = z.infer<typeof ConfigSchema>;

/** The only reader of process.env in this service. `WORK_TIME_ZONE` stands in for an unset `ACADEMY_TIME_ZONE` (one release). */
export function readConfig(environment: NodeJS.ProcessEnv = process.env): Config {
  const { ACADEMY_TIME_ZONE, WORK_TIME_ZONE } = environment;
  if (ACADEMY_TIME_ZONE === undefined && WORK_TIME_ZONE !== undefined) {
    process.emitWarning('WORK_TIME_ZONE is deprecated: set ACADEMY_TIME_ZONE (shared with academic) instead', 'DeprecationWarning');
    return loadConfig(ConfigSchema, { ...environment, ACADEMY_TIME_ZONE: WORK_TIME_ZONE });
  }
  return loadConfig(ConfigSchema, environment);
}
