import { createHash } from 'node:crypto';
import { buffer } from 'node:stream/consumers';
import { taxIdDigest } from '@academy/contracts';
import { employeesByIdentifier } from '../shared/employees.store.ts';
import type { PayslipsContext } from '../shared/payslips-context.ts';
import { employeesWithPayslipsIn, visiblePayslipsByFile } from '../shared/published-payslips.store.ts';
import { findBatch, markFailed, recordPages, type BatchRow } from './batches.store.ts';
import { pageRuns } from './page-runs.ts';

const SCANNED = 'Scanned PDFs cannot be matched: no page of the PDF has a text layer';
const UNREADABLE = 'The PDF could not be read';

/** A batch to read; `bytes`, its combined PDF when at hand (just uploaded), else it is read from storage. */
interface ReadBatchInput {
  batchId: number;
  bytes?: Buffer;
}

/**
 * Reads every page of a `reading` batch in a worker thread and matches it to the employees whose
 * identifier it names (a DNI or NIE by its digest: the replica holds no tax id); then the batch is
 * `ready` with its pages, or `failed` with the reason. A batch discarded meanwhile stays discarded.
 * The page texts are never logged.
 */
async function readBatch(ctx: PayslipsContext, input: ReadBatchInput): Promise<void> {
  const batch = await findBatch(ctx.sql.query, input.batchId);
  if (!batch || batch.status !== 'reading' || !batch.storageKey) return;
  try {
    const source = input.bytes ?? (await ctx.storage.open(batch.storageKey).then((stream) => (stream ? buffer(stream) : null)));
    if (!source) throw new Error('the stored combined PDF is missing');
    const identifiers = await employeesByIdentifier(ctx.sql.query, batch.matchBy);
    const readings = await ctx.pdf.read({ pdf: source, matchBy: batch.matchBy, payrollCodes: batch.matchBy === 'payrollCode' ? [...identifiers.keys()] : [] });
    if (readings.every((reading) => reading.excerpt === '')) return await markFailed(ctx.sql.query, input.batchId, SCANNED, ctx.clock.now());
    const key = batch.matchBy === 'taxId' ? (identifier: string) => taxIdDigest(identifier, ctx.config.TAX_ID_DIGEST_KEY) : (identifier: string) => identifier;
    const pages = readings.map((reading, index) => {
      const candidateIds = [...new Set(reading.found.flatMap((identifier) => identifiers.get(key(identifier)) ?? []))].sort((a, b) => a - b);
      // Only a page that names nobody keeps its text, for the administrator who assigns it.
      return { page: index + 1, candidateIds, excerpt: candidateIds.length ? '' : reading.excerpt, duplicateOfPayslipId: null as number | null };
    });
    for (const [page, payslipId] of await duplicatePages(ctx, batch, source, pages)) pages[page - 1]!.duplicateOfPayslipId = payslipId;
    await ctx.sql.transaction((query) => recordPages(query, input.batchId, pages, ctx.clock.now()));
  } catch (error) {
    // A stopping instance leaves the batch `reading`: another instance (or this one restarted) reads it again.
    if (ctx.stopping) return;
    ctx.logger.error({ err: error, batchId: input.batchId }, 'payslip batch read failed');
    await markFailed(ctx.sql.query, input.batchId, UNREADABLE, ctx.clock.now());
  }
}

/**
 * The pages whose run is, file for file, a visible payslip of its employee already (the combined PDF
 * uploaded again): page → that payslip. Only the runs of employees with a payslip in the batch's period
 * are split and hashed (publish splits the same way, so the files are the same bytes): a new month's
 * batch costs no split here. Publish checks every run again.
 */
async function duplicatePages(ctx: PayslipsContext, batch: BatchRow, source: Buffer, pages: { page: number; candidateIds: number[]; excerpt: string }[]): Promise<Map<number, number>> {
  const runs = pageRuns(pages.map((page) => ({ ...page, assignedEmployeeId: null, payslipId: null, duplicateOfPayslipId: null })));
  const suspects = await employeesWithPayslipsIn(ctx.sql.query, [...new Set(runs.map((run) => run.employeeId))], batch.periodStart, batch.periodEnd);
  const checked = runs.filter((run) => suspects.has(run.employeeId));
  if (!checked.length) return new Map();
  const files = await ctx.pdf.split({ pdf: source, runs: checked });
  const hashes = files.map((file) => createHash('sha256').update(file).digest('hex'));
  const existing = await visiblePayslipsByFile(ctx.sql.query, checked.map((run, index) => ({ employeeId: run.employeeId, sha256: hashes[index]! })));
  const duplicates = new Map<number, number>();
  for (const [index, run] of checked.entries()) {
    const payslipId = existing.get(`${run.employeeId}:${hashes[index]}`);
    if (payslipId !== undefined) for (let page = run.fromPage; page <= run.toPage; page++) duplicates.set(page, payslipId);
  }
  return duplicates;
}

/** Starts reading a batch off the request path (after its answer: the batch row is committed by then); awaited at stop. */
export function startRead(ctx: PayslipsContext, input: ReadBatchInput): void {
  const reading = ctx
    .detached(() => readBatch(ctx, input))
    .catch((error: unknown) => ctx.logger.error({ err: error, batchId: input.batchId }, 'payslip batch read could not be recorded'))
    .finally(() => ctx.reads.delete(reading));
  ctx.reads.add(reading);
}
