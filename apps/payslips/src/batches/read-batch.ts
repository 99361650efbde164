import { buffer } from 'node:stream/consumers';
import type { Query } from '../shared/db.ts';
import type { Payslips } from '../shared/payslips-context.ts';
import { findBatch } from './batches.store.ts';

const SCANNED = 'Scanned PDFs cannot be matched: no page of the PDF has a text layer';
const UNREADABLE = 'The PDF could not be read';

/** Identifier (tax id, or payroll code in upper case) → the active employees that have it. */
async function identifiersOf(query: Query, matchBy: 'taxId' | 'payrollCode'): Promise<Map<string, number[]>> {
  const column = matchBy === 'taxId' ? 'tax_id' : 'upper(payroll_code)';
  const rows = await query<{ id: number; identifier: string }>(
    `select id, ${column} as identifier from employees where ${column} is not null and active and not deleted order by id`,
  );
  const byIdentifier = new Map<string, number[]>();
  for (const row of rows) byIdentifier.set(row.identifier, [...(byIdentifier.get(row.identifier) ?? []), row.id]);
  return byIdentifier;
}

/**
 * Reads every page of a `reading` batch in a worker thread and matches it to the employees whose
 * identifier it names; then the batch is `ready` with its pages, or `failed` with the reason. A
 * batch discarded meanwhile stays discarded. The page texts are never logged.
 */
async function readBatch(payslips: Payslips, batchId: number, bytes?: Buffer): Promise<void> {
  const { sql, storage, pdf, logger, now } = payslips;
  const batch = await findBatch(sql.query, batchId);
  if (!batch || batch.status !== 'reading' || !batch.storageKey) return;
  try {
    const source = bytes ?? (await storage.open(batch.storageKey).then((stream) => (stream ? buffer(stream) : null)));
    if (!source) throw new Error('the stored combined PDF is missing');
    const identifiers = await identifiersOf(sql.query, batch.matchBy);
    const readings = await pdf.read({ pdf: source, matchBy: batch.matchBy, payrollCodes: batch.matchBy === 'payrollCode' ? [...identifiers.keys()] : [] });
    if (readings.every((reading) => reading.excerpt === '')) return await fail(payslips, batchId, SCANNED);
    const pages = readings.map((reading, index) => {
      const candidateIds = [...new Set(reading.found.flatMap((identifier) => identifiers.get(identifier) ?? []))].sort((a, b) => a - b);
      // Only a page that names nobody keeps its text, for the administrator who assigns it.
      return { page: index + 1, candidateIds, excerpt: candidateIds.length ? '' : reading.excerpt };
    });
    await sql.transaction(async (query) => {
      const [ready] = await query(`update payslip_batches set status = 'ready', read_at = $2, page_count = $3 where id = $1 and status = 'reading' returning id`, [
        batchId,
        now(),
        pages.length,
      ]);
      if (!ready) return;
      await query(
        `insert into payslip_batch_pages (batch_id, page, candidate_ids, excerpt)
         select $1, t.page, t.candidates::jsonb, t.excerpt from unnest($2::int[], $3::text[], $4::text[]) as t(page, candidates, excerpt)
         on conflict do nothing`,
        [batchId, pages.map((p) => p.page), pages.map((p) => JSON.stringify(p.candidateIds)), pages.map((p) => p.excerpt)],
      );
    });
  } catch (error) {
    // A stopping instance leaves the batch `reading`: another instance (or this one restarted) reads it again.
    if (payslips.stopping) return;
    logger.error({ err: error, batchId }, 'payslip batch read failed');
    await fail(payslips, batchId, UNREADABLE);
  }
}

async function fail(payslips: Payslips, batchId: number, reason: string): Promise<void> {
  await payslips.sql.query(`update payslip_batches set status = 'failed', failure_reason = $2, read_at = $3 where id = $1 and status = 'reading'`, [batchId, reason, payslips.now()]);
}

/** Starts reading a batch off the request path (after its answer: the batch row is committed by then); awaited at stop. */
export function startRead(payslips: Payslips, batchId: number, bytes?: Buffer): void {
  const reading = payslips
    .detached(() => readBatch(payslips, batchId, bytes))
    .catch((error: unknown) => payslips.logger.error({ err: error, batchId }, 'payslip batch read could not be recorded'))
    .finally(() => payslips.reads.delete(reading));
  payslips.reads.add(reading);
}

/**
 * Batches left `reading` longer than BATCH_READ_TIMEOUT_MS (their instance stopped mid-read) are
 * claimed (one instance each: `skip locked`) and read again.
 */
export async function resumeInterruptedReads(payslips: Payslips): Promise<number> {
  const at = payslips.now();
  const claimed = await payslips.sql.query<{ id: number }>(
    `update payslip_batches set read_started_at = $1 where id in (
       select id from payslip_batches where status = 'reading' and read_started_at < $2 order by id limit 5 for update skip locked) returning id`,
    [at, new Date(at.getTime() - payslips.config.BATCH_READ_TIMEOUT_MS)],
  );
  for (const { id } of claimed) startRead(payslips, id);
  return claimed.length;
}
