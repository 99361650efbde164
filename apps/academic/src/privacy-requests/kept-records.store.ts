// The SQL of what an erasure keeps of a student (issue 35): their academic records (marks, blocks,
// attendance), kept restricted until ACADEMIC_RECORDS_RETENTION_YEARS after the erasure, then deleted.
import type { EntityManager } from '@mikro-orm/postgresql';

const changed = async (em: EntityManager, sql: string, params: unknown[]) => (await em.execute<{ n: number }[]>(`with changed as (${sql} returning 1) select count(*)::int as n from changed`, params))[0]!.n;

/**
 * An erased (withdrawn) student leaves every class that has not started at `at` and their
 * registrations are cancelled: no roster, teacher's list or reminder names them again. The classes
 * they attended keep them (the kept attendance marks).
 */
export async function withdrawStudentFromClasses(em: EntityManager, studentId: number, at: Date): Promise<{ classes: number; registrations: number }> {
  const classes = await changed(em, `delete from event_students es using calendar_events e where e.id = es.event_id and es.student_id = ? and e.starts_at > ?`, [studentId, at]);
  const registrations = await changed(em, `update registrations set status = 'cancelled', updated_at = ? where student_id = ? and status <> 'cancelled'`, [at, studentId]);
  return { classes, registrations };
}

/** `erased_at`'s day (UTC) `?` years on, as the erasure's outcome dates it (`until`): Feb 29 + 1 year is Mar 1, as in JavaScript. */
const UNTIL = `(make_date(extract(year from s.erased_at at time zone 'UTC')::int + ?, extract(month from s.erased_at at time zone 'UTC')::int, 1)
               + (extract(day from s.erased_at at time zone 'UTC')::int - 1))`;

/**
 * Deletes the academic records kept of each student erased `years` or more before `now`'s day (UTC):
 * their blocks with marks, attendance marks with their history, and attendance standings. The
 * anonymized student row stays (it names nobody). Answers the counts.
 */
export async function deleteExpiredAcademicRecords(em: EntityManager, now: Date, years: number): Promise<{ students: number; blocks: number; attendanceMarks: number }> {
  const due = `select s.id from students s where s.erased_at is not null and ${UNTIL} <= (?::timestamptz at time zone 'UTC')::date`;
  const params = [years, now];
  const [{ n: students }] = await em.execute<{ n: number }[]>(`select count(*)::int as n from (${due}) d where exists (select 1 from student_blocks sb where sb.student_id = d.id) or exists (select 1 from attendance_marks m where m.student_id = d.id)`, params);
  const blocks = await changed(em, `delete from student_blocks where student_id in (${due})`, params);
  const attendanceMarks = await changed(em, `delete from attendance_marks where student_id in (${due})`, params);
  await em.execute(`delete from attendance_mark_changes where student_id in (${due})`, params);
  await em.execute(`delete from attendance_standings where student_id in (${due})`, params);
  return { students: students!, blocks, attendanceMarks };
}
