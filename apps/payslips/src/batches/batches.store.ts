import type { PayslipBatch } from '@academy/contracts';
import { daySql, isoSql, type Query } from '../shared/db.ts';
import { employeeNames } from '../shared/employees.store.ts';
import { ambiguousPages, pageRuns, unmatchedPages, type BatchPage } from './page-runs.ts';

export interface BatchRow {
  id: number;
  status: PayslipBatch['status'];
  failureReason: string | null;
  label: string;
  periodStart: string;
  periodEnd: string;
  issuedOn: string;
  matchBy: PayslipBatch['matchBy'];
  pageCount: number;
  sizeBytes: number;
  storageKey: string | null;
  createdAt: string;
  readAt: string | null;
  publishedAt: string | null;
}

const BATCH_COLUMNS = `id, status, failure_reason as "failureReason", label, ${daySql('period_start')} as "periodStart", ${daySql('period_end')} as "periodEnd",
  ${daySql('issued_on')} as "issuedOn", match_by as "matchBy", page_count as "pageCount", size_bytes as "sizeBytes", storage_key as "storageKey",
  ${isoSql('created_at')} as "createdAt", ${isoSql('read_at')} as "readAt", ${isoSql('published_at')} as "publishedAt"`;

export async function findBatch(query: Query, id: number, options: { lock?: boolean } = {}): Promise<BatchRow | null> {
  const [row] = await query<BatchRow>(`select ${BATCH_COLUMNS} from payslip_batches where id = $1${options.lock ? ' for update' : ''}`, [id]);
  return row ?? null;
}

export async function batchPages(query: Query, batchId: number): Promise<BatchPage[]> {
  return query<BatchPage>(
    `select page, candidate_ids as "candidateIds", assigned_employee_id as "assignedEmployeeId", excerpt, payslip_id as "payslipId",
       duplicate_of_payslip_id as "duplicateOfPayslipId"
     from payslip_batch_pages where batch_id = $1 order by page`,
    [batchId],
  );
}

/** The batch as the API shows it: its employees with their page runs, unmatched and ambiguous pages. */
export async function batchView(query: Query, id: number): Promise<PayslipBatch | null> {
  const batch = await findBatch(query, id);
  if (!batch) return null;
  const pages = await batchPages(query, id);
  const runs = pageRuns(pages);
  const employeeIds = [...new Set(runs.map((run) => run.employeeId))];
  const names = await employeeNames(query, employeeIds);
  const matches = employeeIds.map((employeeId) => ({
    employeeId,
    employeeName: names.get(employeeId) ?? null,
    payslips: runs
      .filter((run) => run.employeeId === employeeId)
      .map(({ fromPage, toPage, payslipId, duplicateOfPayslipId }) => ({ fromPage, toPage, payslipId, duplicateOfPayslipId })),
  }));
  const { storageKey: _storageKey, ...shown } = batch;
  return { ...shown, matches, unmatchedPages: unmatchedPages(pages), ambiguousPages: ambiguousPages(pages) };
}

/** A batch as its upload records it: the stored row's own fields, with the file stored and who uploaded it. */
export interface NewBatch extends Pick<BatchRow, 'label' | 'periodStart' | 'periodEnd' | 'issuedOn' | 'matchBy' | 'pageCount' | 'sizeBytes'> {
  storageKey: string;
  createdAt: Date;
  createdByUserId: number | null;
}

/** Records a batch as `reading` (its read starting now); answers its id. */
export async function insertBatch(query: Query, batch: NewBatch): Promise<number> {
  const [row] = await query<{ id: number }>(
    `insert into payslip_batches (status, label, period_start, period_end, issued_on, match_by, page_count, size_bytes, storage_key, created_at, created_by_user_id, read_started_at)
     values ('reading', $1, $2::date, $3::date, $4::date, $5, $6, $7, $8, $9, $10, $9) returning id`,
    [batch.label, batch.periodStart, batch.periodEnd, batch.issuedOn, batch.matchBy, batch.pageCount, batch.sizeBytes, batch.storageKey, batch.createdAt, batch.createdByUserId],
  );
  return row!.id;
}

/** A `reading` batch becomes `ready` with its pages; answers false when it had left `reading` meanwhile (discarded). */
export async function recordPages(
  query: Query,
  batchId: number,
  pages: { page: number; candidateIds: number[]; excerpt: string; duplicateOfPayslipId: number | null }[],
  readAt: Date,
): Promise<boolean> {
  const [ready] = await query(`update payslip_batches set status = 'ready', read_at = $2, page_count = $3 where id = $1 and status = 'reading' returning id`, [batchId, readAt, pages.length]);
  if (!ready) return false;
  await query(
    `insert into payslip_batch_pages (batch_id, page, candidate_ids, excerpt, duplicate_of_payslip_id)
     select $1, t.page, t.candidates::jsonb, t.excerpt, t.duplicate from unnest($2::int[], $3::text[], $4::text[], $5::int[]) as t(page, candidates, excerpt, duplicate)
     on conflict do nothing`,
    [batchId, pages.map((p) => p.page), pages.map((p) => JSON.stringify(p.candidateIds)), pages.map((p) => p.excerpt), pages.map((p) => p.duplicateOfPayslipId)],
  );
  return true;
}

/** A `reading` batch ends `failed` with the reason. */
export async function markFailed(query: Query, batchId: number, reason: string, at: Date): Promise<void> {
  await query(`update payslip_batches set status = 'failed', failure_reason = $2, read_at = $3 where id = $1 and status = 'reading'`, [batchId, reason, at]);
}

/** Claims (for this instance: `skip locked`) up to five batches whose read started before `startedBefore`, restarting their clock; answers their ids. */
export async function claimInterruptedReads(query: Query, at: Date, startedBefore: Date): Promise<number[]> {
  const rows = await query<{ id: number }>(
    `update payslip_batches set read_started_at = $1 where id in (
       select id from payslip_batches where status = 'reading' and read_started_at < $2 order by id limit 5 for update skip locked) returning id`,
    [at, startedBefore],
  );
  return rows.map((row) => row.id);
}

export async function assignPageTo(query: Query, batchId: number, page: number, employeeId: number): Promise<void> {
  await query(`update payslip_batch_pages set assigned_employee_id = $3 where batch_id = $1 and page = $2`, [batchId, page, employeeId]);
}

/** Pages `fromPage` to `toPage` became payslip `payslipId`. */
export async function linkPages(query: Query, batchId: number, run: { fromPage: number; toPage: number }, payslipId: number): Promise<void> {
  await query(`update payslip_batch_pages set payslip_id = $4 where batch_id = $1 and page between $2 and $3`, [batchId, run.fromPage, run.toPage, payslipId]);
}

/** Pages `fromPage` to `toPage` already are payslip `payslipId` of their employee (the same file). */
export async function markDuplicate(query: Query, batchId: number, run: { fromPage: number; toPage: number }, payslipId: number): Promise<void> {
  await query(`update payslip_batch_pages set duplicate_of_payslip_id = $4 where batch_id = $1 and page between $2 and $3`, [batchId, run.fromPage, run.toPage, payslipId]);
}

/** Forgets the duplicates the read found (publish finds them again, for the runs as they are now). */
export async function clearDuplicates(query: Query, batchId: number): Promise<void> {
  await query(`update payslip_batch_pages set duplicate_of_payslip_id = null where batch_id = $1 and duplicate_of_payslip_id is not null`, [batchId]);
}

export async function markPublished(query: Query, batchId: number, at: Date): Promise<void> {
  await query(`update payslip_batches set status = 'published', published_at = $2, storage_key = null where id = $1`, [batchId, at]);
}

/** The batch is discarded: its pages dropped, its file no longer referenced. */
export async function markDiscarded(query: Query, batchId: number, at: Date): Promise<void> {
  await query(`update payslip_batches set status = 'discarded', discarded_at = $2, storage_key = null where id = $1`, [batchId, at]);
  await query(`delete from payslip_batch_pages where batch_id = $1`, [batchId]);
}
