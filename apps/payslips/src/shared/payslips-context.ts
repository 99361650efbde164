import path from 'node:path';
import { RequestContext } from '@mikro-orm/postgresql';
import { diskStorage, encryptedStorage, type FileStorage } from '@academy/files';
import { implementFor, type ServiceContext } from '@academy/service';
import type { Config } from '../config.ts';
import { Sql } from './db.ts';
import { PdfPool } from './pdf-pool.ts';

/** What payslips' features work with: the service's context (its clock among it) and what its `setup` builds once per instance. */
export interface PayslipsContext extends ServiceContext<Config> {
  /** Prepared statements on the service's EntityManager (the request's transaction when there is one). */
  sql: Sql;
  /** Encrypted at rest (`encryptedStorage` over the disk). */
  storage: FileStorage;
  pdf: PdfPool;
  /** Runs background work outside the request that started it (its own EntityManager, no request transaction). */
  detached: <T>(work: () => Promise<T>) => Promise<T>;
  /** Batch reads running in this instance, awaited at stop. */
  reads: Set<Promise<void>>;
  stopping: boolean;
}

/** The PDF worker's entry point: `src/pdf.worker.ts`, or once bundled (this code inside `main.js`) `pdf.worker.js` beside it. */
const PDF_WORKER = import.meta.url.endsWith('.ts') ? new URL('../pdf.worker.ts', import.meta.url) : new URL('./pdf.worker.js', import.meta.url);

export function createPayslipsContext(ctx: ServiceContext<Config>): PayslipsContext {
  return {
    ...ctx,
    sql: new Sql(ctx.orm.em),
    storage: encryptedStorage(diskStorage(path.resolve(ctx.config.FILES_DIR)), ctx.config.PAYSLIP_FILE_KEYS),
    pdf: new PdfPool(PDF_WORKER, ctx.config.PDF_WORKERS, ctx.config.PDF_CHECK_TIMEOUT_MS),
    detached: (work) => RequestContext.create(ctx.orm.em.fork(), work),
    reads: new Set(),
    stopping: false,
  };
}

/** Implements a contract with handlers that take this service's context (each feature's `<feature>.routes.ts`). */
export const implement = implementFor<PayslipsContext>();
