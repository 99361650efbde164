import type { PayslipBatch } from '@academy/contracts';
import { daySql, isoSql, type Query } from '../shared/db.ts';
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
    `select page, candidate_ids as "candidateIds", assigned_employee_id as "assignedEmployeeId", excerpt, payslip_id as "payslipId"
     from payslip_batch_pages where batch_id = $1 order by page`,
    [batchId],
  );
}

/** The batch as the API shows it: its employees with their page runs, unmatched and ambiguous pages. */
export async function showBatch(query: Query, id: number): Promise<PayslipBatch | null> {
  const batch = await findBatch(query, id);
  if (!batch) return null;
  const pages = await batchPages(query, id);
  const runs = pageRuns(pages);
  const employeeIds = [...new Set(runs.map((run) => run.employeeId))];
  const names = new Map(
    (await query<{ id: number; name: string | null }>(`select id, name from employees where id = any($1::int[])`, [employeeIds])).map((row) => [row.id, row.name]),
  );
  const matches = employeeIds.map((employeeId) => ({
    employeeId,
    employeeName: names.get(employeeId) ?? null,
    payslips: runs.filter((run) => run.employeeId === employeeId).map(({ fromPage, toPage, payslipId }) => ({ fromPage, toPage, payslipId })),
  }));
  const { storageKey: _storageKey, ...shown } = batch;
  return { ...shown, matches, unmatchedPages: unmatchedPages(pages), ambiguousPages: ambiguousPages(pages) };
}
