import type { AdminPayslip, AdminPayslipsQuery, MyPayslip } from '@academy/contracts';
import { pageMeta, pageTotal } from '@academy/kit';
import { daySql, isoSql, type Query } from '../shared/db.ts';

/** The columns of `AdminPayslip` (and of `MyPayslip`, its first part), from `payslips p` joined to `employees e`. */
const ADMIN_COLUMNS = `p.id, p.label, ${daySql('p.period_start')} as "periodStart", ${daySql('p.period_end')} as "periodEnd", ${daySql('p.issued_on')} as "issuedOn",
  p.size_bytes as "sizeBytes", p.supersedes_id is not null as correction, ${isoSql('p.created_at')} as "publishedAt",
  p.employee_id as "employeeId", e.name as "employeeName",
  case when p.deleted_at is not null then 'deleted' when p.superseded_by_id is not null then 'superseded' else 'visible' end as status,
  ${isoSql('p.first_viewed_at')} as "firstViewedAt", p.supersedes_id as "supersedesPayslipId", p.superseded_by_id as "supersededByPayslipId",
  p.batch_id as "batchId", ${isoSql('p.deleted_at')} as "deletedAt", p.deleted_by_user_id as "deletedByUserId", p.delete_reason as "deleteReason"`;
const MY_COLUMNS = `p.id, p.label, ${daySql('p.period_start')} as "periodStart", ${daySql('p.period_end')} as "periodEnd", ${daySql('p.issued_on')} as "issuedOn",
  p.size_bytes as "sizeBytes", p.supersedes_id is not null as correction, ${isoSql('p.created_at')} as "publishedAt"`;
/** Shown to its employee: neither deleted nor corrected, nor restricted (its employee's data erased on request). */
const VISIBLE = `p.deleted_at is null and p.superseded_by_id is null and p.restricted_at is null`;
/** Restricted payslips are kept for the law only: no list, read, download or correction shows them (the privacy export has them). */
const UNRESTRICTED = `p.restricted_at is null`;
/** Newest first: by period, then issue date. */
const NEWEST_FIRST = `p.period_start desc, p.issued_on desc, p.id desc`;

export async function readAdminPayslip(query: Query, id: number): Promise<AdminPayslip | null> {
  const [row] = await query<AdminPayslip>(`select ${ADMIN_COLUMNS} from payslips p left join employees e on e.id = p.employee_id where p.id = $1 and ${UNRESTRICTED}`, [id]);
  return row ?? null;
}

export async function listMine(query: Query, employeeId: number, year: number | undefined): Promise<MyPayslip[]> {
  return query<MyPayslip>(
    `select ${MY_COLUMNS} from payslips p where p.employee_id = $1 and ${VISIBLE} and ($2::int is null or extract(year from p.period_start) = $2) order by ${NEWEST_FIRST}`,
    [employeeId, year ?? null],
  );
}

export async function listForAdmin(query: Query, filter: AdminPayslipsQuery) {
  const matching = `from payslips p left join employees e on e.id = p.employee_id
     where ($1::int is null or p.employee_id = $1) and ($2::int is null or extract(year from p.period_start) = $2)
       and ($3::int is null or extract(month from p.period_start) = $3) and ($4 or (${VISIBLE})) and ${UNRESTRICTED}`;
  const filters = [filter.employeeId ?? null, filter.year ?? null, filter.month ?? null, filter.include === 'deleted'];
  const rows = await query<AdminPayslip & { total: string }>(
    `select ${ADMIN_COLUMNS}, count(*) over () as total ${matching} order by ${NEWEST_FIRST} limit $5 offset $6`,
    [...filters, filter.limit, (filter.page - 1) * filter.limit],
  );
  // A page past the last has no row to carry the total: counted apart then.
  const totalItems = await pageTotal(rows, filter.page, async () => (await query<{ total: string }>(`select count(*) as total ${matching}`, filters))[0]!.total);
  return {
    data: rows.map(({ total: _total, ...payslip }) => payslip),
    meta: pageMeta(totalItems, filter.page, filter.limit),
  };
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
     from payslips p where id = $1 and ${UNRESTRICTED} for update`,
    [id],
  );
  return row ?? null;
}

/** Hides a payslip from its employee, recording who, when and why. */
export async function markDeleted(query: Query, id: number, deletion: { at: Date; byUserId: number | null; reason: string }): Promise<void> {
  await query(`update payslips set deleted_at = $2, deleted_by_user_id = $3, delete_reason = $4 where id = $1`, [id, deletion.at, deletion.byUserId, deletion.reason]);
}

/** `id` is corrected by `correctionId`: hidden from its employee, kept. */
export async function markSuperseded(query: Query, id: number, correctionId: number, at: Date): Promise<void> {
  await query(`update payslips set superseded_by_id = $2, superseded_at = $3 where id = $1`, [id, correctionId, at]);
}

export interface DownloadablePayslip {
  employeeId: number;
  storageKey: string;
  /** `YYYY-MM` of its period's start, for the file name. */
  month: string;
}

/** The payslip's file, when `reader` may download it: any for an admin, its employee's own while visible. */
export async function findDownloadable(query: Query, id: number, reader: { admin: boolean; employeeId: number | null }): Promise<DownloadablePayslip | null> {
  const [row] = await query<DownloadablePayslip>(
    `select employee_id as "employeeId", storage_key as "storageKey", to_char(period_start, 'YYYY-MM') as month
     from payslips p where id = $1 and ${UNRESTRICTED} and ($2 or (employee_id = $3 and ${VISIBLE}))`,
    [id, reader.admin, reader.employeeId],
  );
  return row ?? null;
}

/** The first download by its employee: the receipt (later ones change nothing). */
export async function markFirstViewed(query: Query, id: number, at: Date): Promise<void> {
  await query(`update payslips set first_viewed_at = $2 where id = $1 and first_viewed_at is null`, [id, at]);
}

/** Removes deleted, corrected and restricted payslips whose period ended before `cutoff` (`YYYY-MM-DD`); answers their files' keys. */
export async function deleteHiddenEndedBefore(query: Query, cutoff: string): Promise<string[]> {
  const rows = await query<{ storageKey: string }>(
    `delete from payslips where (deleted_at is not null or superseded_by_id is not null or restricted_at is not null) and period_end < $1::date returning storage_key as "storageKey"`,
    [cutoff],
  );
  return rows.map((row) => row.storageKey);
}
