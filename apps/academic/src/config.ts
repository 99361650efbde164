import { z } from 'zod';
import { DEV_TAX_ID_DIGEST_KEY, Locale } from '@academy/contracts';
import { env, loadConfig } from '@academy/kit';
import { privacySettings } from '@academy/privacy';
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

/** Attendance (`attendance/`): the academy's days, the teachers' editing window, warnings and reminders. */
export const AttendanceSettingsSchema = z.object({
  /** The academy's time zone (IANA): its days, and the times of the CSV report. Shared with incidents. */
  ACADEMY_TIME_ZONE: env.timeZone('Europe/Madrid'),
  /** A teacher may take or change a class's attendance until this many days after it ends (admins any time). */
  ATTENDANCE_EDIT_DAYS: z.coerce.number().int().min(0).max(365).default(7),
  /** A student whose weighted attendance in a subject drops below this percentage is warned about (once per crossing). */
  ATTENDANCE_WARNING_PERCENT: z.coerce.number().min(0).max(100).default(80),
  /** …once they have at least this many counted sessions in the subject. */
  ATTENDANCE_WARNING_MIN_SESSIONS: z.coerce.number().int().min(1).default(4),
  /** The daily reminder of missing sheets goes out from this local hour of the academy's day on. */
  ATTENDANCE_REMINDER_HOUR: z.coerce.number().int().min(0).max(23).default(18),
  /** How often the reminder check runs; 0 turns it off (tests run it by hand). */
  ATTENDANCE_CHECK_INTERVAL_MS: z.coerce.number().int().min(0).default(10 * 60_000),
});
export type AttendanceSettings = z.infer<typeof AttendanceSettingsSchema>;

/** Blocks (`blocks/`): the daily digest of blocks left waiting for review, to each admin. */
export const DigestSettingsSchema = z.object({
  /** The digest goes out from this local time ("HH:MM") of the academy's day (ACADEMY_TIME_ZONE) on. */
  DIGEST_TIME: z
    .string()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: 'must be a time of day as HH:MM, such as 08:00' })
    .default('08:00'),
  /** A pending block is in the digest once it has waited this many hours. */
  PENDING_REMINDER_HOURS: z.coerce.number().int().positive().default(48),
  /** How often the digest check runs; 0 turns it off (tests run it by hand). */
  DIGEST_CHECK_INTERVAL_MS: z.coerce.number().int().min(0).default(10 * 60_000),
});
export type DigestSettings = z.infer<typeof DigestSettingsSchema>;

/** Employees' events (`employee.upserted`): the key of the tax id's digest, shared with payslips only (a Secret in a deployment). */
export const EmployeeEventSettingsSchema = z.object({
  TAX_ID_DIGEST_KEY: z.string().min(32, { error: 'must be at least 32 characters (a random secret shared with payslips)' }).default(DEV_TAX_ID_DIGEST_KEY),
});
export type EmployeeEventSettings = z.infer<typeof EmployeeEventSettingsSchema>;

/** Personal data requests (`privacy-requests/`, libs/privacy): academic's own part, where the others' parts are read, what academic records are kept. */
export const PrivacyRequestSettingsSchema = privacySettings('academic').extend({
  /** The queue of the services' answers (`privacy.part.answered`). */
  PRIVACY_REQUESTS_QUEUE: z.string().min(1).default('academic.privacy-requests'),
  /** Where each service's internal part route is, `service=url` separated by commas (academic reads its own part locally). */
  PRIVACY_PART_URLS: z
    .string()
    .default('hours-bank=http://127.0.0.1:3002,incidents=http://127.0.0.1:3003,notifications=http://127.0.0.1:3004,payslips=http://127.0.0.1:3005')
    .transform((text, ctx) => {
      const urls: Record<string, string> = {};
      for (const entry of text.split(',').map((part) => part.trim()).filter(Boolean)) {
        const [service, url] = [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)];
        if (!service || !URL.canParse(url)) {
          ctx.addIssue({ code: 'custom', message: `"${entry}" is not service=url` });
          return z.NEVER;
        }
        urls[service] = url;
      }
      return urls;
    }),
  /** The services that must answer, comma-separated; empty (the default): every app consuming privacy.request.opened in the contracts' topology. */
  PRIVACY_SERVICES: z
    .string()
    .default('')
    .transform((text) => text.split(',').map((part) => part.trim()).filter(Boolean)),
  /** The language of a person whose login chose none (the export's README); notifications' ACADEMY_LOCALE. */
  ACADEMY_LOCALE: Locale.default('es'),
  /** What the academy declares as the legal basis of the academic records it keeps after an erasure (marks, attendance). */
  ACADEMIC_RECORDS_LEGAL_BASIS: z.string().min(1).max(500).default('Expediente académico (Ley Orgánica 2/2006 de Educación, disposición adicional 23.ª)'),
  /** …and how many years after the erasure they are removed. */
  ACADEMIC_RECORDS_RETENTION_YEARS: z.coerce.number().int().min(0).max(100).default(5),
  /** How often the kept academic records are looked at for deletion (their day come); 0 turns it off. */
  KEPT_RECORDS_CHECK_INTERVAL_MS: z.coerce.number().int().min(0).default(3_600_000),
  /** How long a service may take to answer a request before it is named on it as not answering (audit, warning). */
  PRIVACY_OVERDUE_AFTER_MS: z.coerce.number().int().min(1).default(86_400_000),
  /** How often open requests are looked at for services overdue; 0 turns it off. */
  PRIVACY_OVERDUE_CHECK_INTERVAL_MS: z.coerce.number().int().min(0).default(3_600_000),
});
export type PrivacyRequestSettings = z.infer<typeof PrivacyRequestSettingsSchema>;

/** The service's own settings (what tests give `testConfig` for their defaults). */
export const SettingsSchema = AuthSettingsSchema.extend(AttendanceSettingsSchema.shape).extend(DigestSettingsSchema.shape).extend(EmployeeEventSettingsSchema.shape).extend(PrivacyRequestSettingsSchema.shape);

export const ConfigSchema = baseConfigSchema({ port: 3001, database: 'academic' }).extend(SettingsSchema.shape);

export type Config = BaseConfig & AuthSettings & AttendanceSettings & DigestSettings & EmployeeEventSettings & PrivacyRequestSettings;

/** The only reader of process.env in this service. */
export const readConfig = (): Config => loadConfig(ConfigSchema);
