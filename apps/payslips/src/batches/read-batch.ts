import { buffer } from 'node:stream/consumers';
import { employeesByIdentifier } from '../shared/employees.ts';
import type { PayslipsContext } from '../shared/payslips-context.ts';
import { findBatch, markFailed, recordPages } from './batches.store.ts';

const SCANNED = 'Scanned PDFs cannot be matched: no page of the PDF has a text layer';
const UNREADABLE = 'The PDF could not be read';

/**
 * Reads every page of a `reading` batch in a worker thread and matches it to the employees whose
 * identifier it names; then the batch is `ready` with its pages, or `failed` with the reason. A
 * batch discarded meanwhile stays discarded. The page texts are never logged.
 */
async function readBatch(ctx: PayslipsContext, batchId: number, bytes?: Buffer): Promise<void> {
  const { sql, storage, pdf, logger, clock } = ctx;
  const batch = await findBatch(sql.query, batchId);
  if (!batch || batch.status !== 'reading' || !batch.storageKey) return;
  try {
    const source = bytes ?? (await storage.open(batch.storageKey).then((stream) => (stream ? buffer(stream) : null)));
    if (!source) throw new Error('the stored combined PDF is missing');
    const identifiers = await employeesByIdentifier(sql.query, batch.matchBy);
    const readings = await pdf.read({ pdf: source, matchBy: batch.matchBy, payrollCodes: batch.matchBy === 'payrollCode' ? [...identifiers.keys()] : [] });
    if (readings.every((reading) => reading.excerpt === '')) return await markFailed(sql.query, batchId, SCANNED, clock.now());
    const pages = readings.map((reading, index) => {
      const candidateIds = [...new Set(reading.found.flatMap((identifier) => identifiers.get(identifier) ?? []))].sort((a, b) => a - b);
      // Only a page that names nobody keeps its text, for the administrator who assigns it.
      return { page: index + 1, candidateIds, excerpt: candidateIds.length ? '' : reading.excerpt };
    });
    await sql.transaction((query) => recordPages(query, batchId, pages, clock.now()));
  } catch (error) {
    // A stopping instance leaves the batch `reading`: another instance (or this one restarted) reads it again.
    if (ctx.stopping) return;
    logger.error({ err: error, batchId }, 'payslip batch read failed');
    await markFailed(sql.query, batchId, UNREADABLE, clock.now());
  }
}

/** Starts reading a batch off the request path (after its answer: the batch row is committed by then); awaited at stop. */
export function startRead(ctx: PayslipsContext, batchId: number, bytes?: Buffer): void {
  const reading = ctx
    .detached(() => readBatch(ctx, batchId, bytes))
    .catch((error: unknown) => ctx.logger.error({ err: error, batchId }, 'payslip batch read could not be recorded'))
    .finally(() => ctx.reads.delete(reading));
  ctx.reads.add(reading);
}
