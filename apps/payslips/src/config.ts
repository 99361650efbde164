import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { DEV_TAX_ID_DIGEST_KEY } from '@academy/contracts';
import { env, loadConfig } from '@academy/kit';
import { fileKeysSetting } from '@academy/files';
import { privacySettings } from '@academy/privacy';
import { baseConfigSchema } from '@academy/service';

const megabytes = (fallback: number) => z.coerce.number().positive().max(2000).default(fallback);
/** A size of the configuration (MB) in bytes. */
export const bytesOf = (megabytes: number) => Math.floor(megabytes * 1024 * 1024);

/** 32 random bytes for development only: `npm start` needs no setup, and a deployment sets its own (a Kubernetes Secret). */
const DEV_FILE_KEY = 'dev-1:ZGV2LW9ubHkta2V5LWRvLW5vdC11c2UtaW4tcHJvZCE=';

export const ConfigSchema = baseConfigSchema({ port: 3005, database: 'payslips' }).extend({
  /** Queue of the employees replica (@academy/replicas); tests give each service instance its own. */
  REPLICAS_QUEUE: z.string().min(1).default('payslips.replicas'),
  /** The academy's time zone: the default `issuedOn` is today there. */
  ACADEMY_TIME_ZONE: env.timeZone('Europe/Madrid'),
  /** Where payslip files are stored, encrypted (a ReadWriteMany volume shared by every instance on Kubernetes). */
  FILES_DIR: z.string().min(1).default('.local/dev/payslips/files'),
  /**
   * Keys of the files' encryption at rest, `id:base64(32 bytes)` separated by commas; the first
   * encrypts new files, every one listed can read the files that name it (rotation).
   */
  PAYSLIP_FILE_KEYS: fileKeysSetting(DEV_FILE_KEY),
  /**
   * The key of the tax id's digest (`taxIdDigest`), the same as academic's: the replica keeps each
   * employee's digest, and a batch's page is matched by the digest of each DNI or NIE it names.
   */
  TAX_ID_DIGEST_KEY: z.string().min(32, { error: 'must be at least 32 characters (the secret academic digests tax ids with)' }).default(DEV_TAX_ID_DIGEST_KEY),
  /** Largest file of one payslip, in MB. */
  PAYSLIP_MAX_MB: megabytes(10),
  /** Largest combined PDF of a batch, in MB, and its most pages. */
  BATCH_MAX_MB: megabytes(100),
  BATCH_MAX_PAGES: z.coerce.number().int().positive().max(10_000).default(1000),
  /**
   * Worker threads reading and splitting PDFs: the event loop never does that work. By default one
   * core is left to the event loop (cores − 1, at least 1), so requests keep their latency while a
   * batch is read.
   */
  PDF_WORKERS: z.coerce.number().int().positive().max(32).default(Math.max(1, availableParallelism() - 1)),
  /**
   * How long an upload may take to be checked in a worker (waiting for a free one included), and how
   * long its body may stall: below the gateway's UPSTREAM_TIMEOUT_MS (10 s), so the service answers
   * (503 PDF_CHECK_TIMEOUT, 408 REQUEST_TIMEOUT) before the gateway gives up with a 504.
   */
  PDF_CHECK_TIMEOUT_MS: z.coerce.number().int().positive().default(8_000),
  UPLOAD_IDLE_TIMEOUT_MS: z.coerce.number().int().positive().default(8_000),
  /** Deleted and superseded payslips are kept (file and audit) this many years after their period ends, then purged. */
  PAYSLIP_RETENTION_YEARS: z.coerce.number().int().positive().max(50).default(4),
  /** How often the purge and the recovery of interrupted batch reads run; 0 turns them off (tests run them by hand). */
  HOUSEKEEPING_INTERVAL_MS: z.coerce.number().int().min(0).default(60_000),
  /** A batch still `reading` this long after its read started (its instance stopped) is read again. */
  BATCH_READ_TIMEOUT_MS: z.coerce.number().int().positive().default(5 * 60_000),
}).extend(privacySettings('payslips').shape);

export type Config = z.infer<typeof ConfigSchema>;

/** The only reader of process.env in this service. */
export const readConfig = (): Config => loadConfig(ConfigSchema);
