import { isoFromMillis } from './iso-time.ts';

// The pending listing's answer (a page, or a student's whole listing) written from the page statement's
// plain rows: what PostgreSQL wrote before (bench README, fifth pass), to the same values.

/** A row of the page statement (`pendingPageRowsSql`): a pending block, its names unjoined, its close time in µs since 1970. */
export interface PendingRow {
  student_id: number;
  student_name: string | null;
  student_lastname: string | null;
  id: number;
  block_id: number;
  block_name: string;
  subject_id: number;
  subject_name: string;
  grade: number | null;
  employee_id: number | null;
  employee_name: string | null;
  employee_lastname: string | null;
  closed_micros: string | null;
}

/** `name lastname` trimmed of spaces (PostgreSQL's `trim`, spaces only), '' when either is missing: the listing's `nullif(trim(…), '')` then `coalesce(…, '')`. */
function fullName(name: string | null, lastname: string | null): string {
  if (name === null || lastname === null) return '';
  const text = `${name} ${lastname}`;
  let start = 0;
  let end = text.length;
  while (start < end && text.charCodeAt(start) === 32) start++;
  while (end > start && text.charCodeAt(end - 1) === 32) end--;
  return text.slice(start, end);
}

/** A close time in µs since 1970 as the listing writes it: ISO 8601 UTC with milliseconds (the µs dropped, as `to_char`'s `MS`). */
const closedAt = (micros: string | null) => (micros === null ? null : isoFromMillis(Math.floor(Number(micros) / 1000)));

/**
 * The answer's JSON: the rows (in the listing's order, oldest close first) grouped by student in the
 * order of their oldest block, `total` the rows, and with `limit` the cursor of the page after (its last
 * row's, null when the page is not full); without `limit` (a whole listing) no cursor.
 */
export function pendingAnswerJson(rows: PendingRow[], limit: number | undefined): string {
  const byStudent = new Map<number, { studentId: number; studentName: string; blocks: unknown[] }>();
  for (const row of rows) {
    let group = byStudent.get(row.student_id);
    if (group === undefined) {
      group = { studentId: row.student_id, studentName: fullName(row.student_name, row.student_lastname), blocks: [] };
      byStudent.set(row.student_id, group);
    }
    group.blocks.push({
      studentBlockId: row.id,
      blockId: row.block_id,
      blockName: row.block_name,
      subjectId: row.subject_id,
      subjectName: row.subject_name,
      grade: row.grade,
      status: 'pending',
      employeeId: row.employee_id,
      employeeName: fullName(row.employee_name, row.employee_lastname),
      closedAt: closedAt(row.closed_micros),
    });
  }
  const answer: { ok: true; total: number; byStudent: unknown[]; nextCursor?: string | null } = { ok: true, total: rows.length, byStudent: [...byStudent.values()] };
  if (limit !== undefined) {
    const last = rows.length === limit ? rows.at(-1) : undefined;
    // The listing's cursor (`PendingCursor`): the close time in µs since 1970 (`n` for none), then the id.
    answer.nextCursor = last === undefined ? null : `${last.closed_micros ?? 'n'}.${last.id}`;
  }
  return JSON.stringify(answer);
}
