import type { AdminPayslip, AdminPayslipsQuery, MyPayslip } from '@academy/contracts';
import { pageMeta } from '@academy/kit';
import { daySql, isoSql, type Query } from '../shared/db.ts';
import { duplicatePayslip } from './payslips.errors.ts';

/** The columns of `AdminPayslip` (and of `MyPayslip`, its first part), from `payslips p` joined to `employees e`. */
const ADMIN_COLUMNS = `p.id, p.label, ${daySql('p.period_start')} as "periodStart", ${daySql('p.period_end')} as "periodEnd", ${daySql('p.issued_on')} as "issuedOn",
  p.size_bytes as "sizeBytes", p.supersedes_id is not null as correction, ${isoSql('p.created_at')} as "publishedAt",
  p.employee_id as "employeeId", e.name as "employeeName",
  case when p.deleted_at is not null then 'deleted' when p.superseded_by_id is not null then 'superseded' else 'visible' end as status,
  ${isoSql('p.first_viewed_at')} as "firstViewedAt", p.supersedes_id as "supersedesPayslipId", p.superseded_by_id as "supersededByPayslipId",
  p.batch_id as "batchId", ${isoSql('p.deleted_at')} as "deletedAt", p.deleted_by_user_id as "deletedByUserId", p.delete_reason as "deleteReason"`;
const MY_COLUMNS = `p.id, p.label, ${daySql('p.period_start')} as "periodStart", ${daySql('p.period_end')} as "periodEnd", ${daySql('p.issued_on')} as "issuedOn",
  p.size_bytes as "sizeBytes", p.supersedes_id is not null as correction, ${isoSql('p.created_at')} as "publishedAt"`;
/** Shown to its employee: neither deleted nor corrected. */
export const VISIBLE = `p.deleted_at is null and p.superseded_by_id is null`;
/** Newest first: by period, then issue date. */
const NEWEST_FIRST = `p.period_start desc, p.issued_on desc, p.id desc`;

export async function readAdminPayslip(query: Query, id: number): Promise<AdminPayslip | null> {
  const [row] = await query<AdminPayslip>(`select ${ADMIN_COLUMNS} from payslips p left join employees e on e.id = p.employee_id where p.id = $1`, [id]);
  return row ?? null;
}

export async function listMine(query: Query, employeeId: number, year: number | undefined): Promise<MyPayslip[]> {
  return query<MyPayslip>(
    `select ${MY_COLUMNS} from payslips p where p.employee_id = $1 and ${VISIBLE} and ($2::int is null or extract(year from p.period_start) = $2) order by ${NEWEST_FIRST}`,
    [employeeId, year ?? null],
  );
}

export async function listForAdmin(query: Query, filter: AdminPayslipsQuery) {
  const rows = await query<AdminPayslip & { total: string }>(
    `select ${ADMIN_COLUMNS}, count(*) over () as total from payslips p left join employees e on e.id = p.employee_id
     where ($1::int is null or p.employee_id = $1) and ($2::int is null or extract(year from p.period_start) = $2)
       and ($3::int is null or extract(month from p.period_start) = $3) and ($4 or (${VISIBLE}))
     order by ${NEWEST_FIRST} limit $5 offset $6`,
    [filter.employeeId ?? null, filter.year ?? null, filter.month ?? null, filter.include === 'deleted', filter.limit, (filter.page - 1) * filter.limit],
  );
  const totalItems = Number(rows[0]?.total ?? 0);
  return {
    data: rows.map(({ total: _total, ...payslip }) => payslip),
    meta: pageMeta(totalItems, filter.page, filter.limit),
  };
}

export interface NewPayslip {
  employeeId: number;
  label: string;
  periodStart: string;
  periodEnd: string;
  issuedOn: string;
  sizeBytes: number;
  sha256: string;
  storageKey: string;
  batchId: number | null;
  supersedesId: number | null;
  createdByUserId: number | null;
  createdAt: Date;
}

/** Inserts a payslip; the same file for the same employee (not deleted) is 409 DUPLICATE_PAYSLIP. */
export async function insertPayslip(query: Query, payslip: NewPayslip): Promise<number> {
  const [row] = await query<{ id: number }>(
    `insert into payslips (employee_id, label, period_start, period_end, issued_on, size_bytes, sha256, storage_key, batch_id, supersedes_id, created_at, created_by_user_id)
     values ($1, $2, $3::date, $4::date, $5::date, $6, $7, $8, $9, $10, $11, $12)
     on conflict (employee_id, sha256) where deleted_at is null do nothing returning id`,
    [
      payslip.employeeId,
      payslip.label,
      payslip.periodStart,
      payslip.periodEnd,
      payslip.issuedOn,
      payslip.sizeBytes,
      payslip.sha256,
      payslip.storageKey,
      payslip.batchId,
      payslip.supersedesId,
      payslip.createdAt,
      payslip.createdByUserId,
    ],
  );
  if (!row) throw duplicatePayslip();
  return row.id;
}

export interface LockedPayslip {
  id: number;
  employeeId: number;
  label: string;
  periodStart: string;
  periodEnd: string;
  storageKey: string;
  deleted: boolean;
  superseded: boolean;
}

export async function lockPayslip(query: Query, id: number): Promise<LockedPayslip | null> {
  const [row] = await query<LockedPayslip>(
    `select id, employee_id as "employeeId", label, ${daySql('period_start')} as "periodStart", ${daySql('period_end')} as "periodEnd", storage_key as "storageKey",
       deleted_at is not null as deleted, superseded_by_id is not null as superseded
     from payslips where id = $1 for update`,
    [id],
  );
  return row ?? null;
}
