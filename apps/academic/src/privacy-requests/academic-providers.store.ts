// The SQL of academic's own privacy providers: what the directory, blocks and attendance hold about a
// person, read for an export and erased or anonymized for an erasure.
import type { EntityManager } from '@mikro-orm/postgresql';

type Row = Record<string, unknown>;
/** An instant as ISO 8601 in UTC with milliseconds (`…Z`), as the API and the other services' parts write it. */
const iso = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const rows = (em: EntityManager, sql: string, params: unknown[]) => em.execute<Row[]>(sql, params);
const count = async (em: EntityManager, sql: string, params: unknown[]) => (await em.execute<Row[]>(sql, params)).length;

/** The login of a user: never its password hash. */
const USER_COLUMNS = `id, email, role, locale, active, ${iso('created_at')} as "createdAt", ${iso('updated_at')} as "updatedAt"`;

export async function employeeRecords(em: EntityManager, employeeId: number) {
  const [employee] = await rows(
    em,
    `select id, name, lastname, email, tax_id as "taxId", payroll_code as "payrollCode", kind, active, ${iso('created_at')} as "createdAt", ${iso('updated_at')} as "updatedAt" from employees where id = ? and erased_at is null`,
    [employeeId],
  );
  if (!employee) return null;
  return {
    employee,
    login: (await rows(em, `select ${USER_COLUMNS} from users where employee_id = ? and erased_at is null`, [employeeId]))[0] ?? null,
    subjects: await rows(em, `select es.subject_id as "subjectId", s.name as "subjectName", ${iso('es.created_at')} as "since" from employee_subjects es join subjects s on s.id = es.subject_id where es.employee_id = ? order by es.subject_id`, [employeeId]),
    classes: await rows(em, `select id, subject_id as "subjectId", center_id as "centerId", ${iso('starts_at')} as "startsAt", ${iso('ends_at')} as "endsAt" from calendar_events where employee_id = ? order by starts_at, id`, [employeeId]),
  };
}

export async function studentRecords(em: EntityManager, studentId: number) {
  const [student] = await rows(em, `select id, name, lastname, email, status, guardian_id as "guardianId", ${iso('created_at')} as "createdAt", ${iso('updated_at')} as "updatedAt" from students where id = ? and erased_at is null`, [studentId]);
  if (!student) return null;
  return {
    student,
    login: (await rows(em, `select ${USER_COLUMNS} from users where student_id = ? and erased_at is null`, [studentId]))[0] ?? null,
    registrations: await rows(
      em,
      `select id, school_course_id as "schoolCourseId", subject_id as "subjectId", center_id as "centerId", employee_id as "employeeId", status, ${iso('created_at')} as "createdAt" from registrations where student_id = ? order by id`,
      [studentId],
    ),
  };
}

export async function studentBlockRecords(em: EntityManager, studentId: number) {
  const blocks = await rows(
    em,
    `select sb.id, sb.block_id as "blockId", b.name as "blockName", b.subject_id as "subjectId", sb.status, sb.grade::float8 as grade, sb.employee_id as "employeeId",
            ${iso('sb.closed_at')} as "closedAt", ${iso('sb.rejected_at')} as "rejectedAt", ${iso('sb.approved_at')} as "approvedAt", ${iso('sb.created_at')} as "createdAt"
     from student_blocks sb join blocks b on b.id = sb.block_id where sb.student_id = ? order by sb.id`,
    [studentId],
  );
  const messages = await rows(
    em,
    `select m.id, m.student_block_id as "studentBlockId", m.author_role as "authorRole", m.kind, m.body, ${iso('m.created_at')} as "createdAt"
     from student_block_messages m join student_blocks sb on sb.id = m.student_block_id where sb.student_id = ? order by m.id`,
    [studentId],
  );
  return blocks.length + messages.length === 0 ? null : { blocks, threadMessages: messages };
}

export async function attendanceRecords(em: EntityManager, studentId: number) {
  const marks = await rows(
    em,
    `select m.event_id as "eventId", e.subject_id as "subjectId", ${iso('e.starts_at')} as "startsAt", m.status, m.minutes_late as "minutesLate", m.remark, ${iso('m.marked_at')} as "markedAt"
     from attendance_marks m join calendar_events e on e.id = m.event_id where m.student_id = ? order by e.starts_at, m.event_id`,
    [studentId],
  );
  return marks.length === 0 ? null : { marks };
}

export async function guardianRecords(em: EntityManager, guardianId: number) {
  const [guardian] = await rows(em, `select id, name, lastname, email, phone, active, ${iso('created_at')} as "createdAt", ${iso('updated_at')} as "updatedAt" from guardians where id = ? and erased_at is null`, [guardianId]);
  if (!guardian) return null;
  return { guardian, studentIds: (await rows(em, `select id from students where guardian_id = ? order by id`, [guardianId])).map((row) => row.id) };
}

/** Anonymizes a login: its address replaced by an undeliverable one, its password made unusable, deactivated. Answers the user ids. */
export async function eraseLogins(em: EntityManager, column: 'employee_id' | 'student_id', id: number, at: Date): Promise<number[]> {
  const erased = await em.execute<{ id: number }[]>(
    `update users set email = 'erased-' || id || '@erased.invalid', password_hash = '!erased', active = false, locale = null, erased_at = ?, updated_at = ?
     where ${column} = ? and erased_at is null returning id`,
    [at, at, id],
  );
  return erased.map((row) => row.id);
}

export async function eraseEmployee(em: EntityManager, employeeId: number, at: Date): Promise<number> {
  return count(
    em,
    `update employees set name = 'Erased', lastname = '#' || id, email = null, tax_id = null, payroll_code = null, active = false, erased_at = ?, updated_at = ?
     where id = ? and erased_at is null returning id`,
    [at, at, employeeId],
  );
}

export async function eraseStudent(em: EntityManager, studentId: number, at: Date): Promise<number> {
  return count(
    em,
    `update students set name = 'Erased', lastname = '#' || id, email = null, status = 'withdrawn', guardian_id = null, erased_at = ?, updated_at = ?
     where id = ? and erased_at is null returning id`,
    [at, at, studentId],
  );
}

/** The thread messages about the student's blocks: free text about them, erased. */
export async function eraseThreadMessages(em: EntityManager, studentId: number): Promise<number> {
  return count(em, `delete from student_block_messages m using student_blocks sb where sb.id = m.student_block_id and sb.student_id = ? returning m.id`, [studentId]);
}

/** The student's marks: their closed blocks (approved), the academic records an erasure keeps. */
export async function countStudentBlocks(em: EntityManager, studentId: number): Promise<number> {
  const [row] = await em.execute<{ n: number }[]>(`select count(*)::int as n from student_blocks where student_id = ? and status = 'closed'`, [studentId]);
  return row!.n;
}

/**
 * The student's blocks not closed (not yet open, open, or a mark pending review): progress, no approved
 * mark, so no academic record. Erased: nothing of theirs is left to review, approve (no `block.approved`
 * naming a disabled login), list in the review queue or count in an admins' digest.
 */
export async function eraseUnapprovedBlocks(em: EntityManager, studentId: number): Promise<number> {
  return count(em, `delete from student_blocks where student_id = ? and status <> 'closed' returning id`, [studentId]);
}

/** Attendance remarks are free text about the student: erased; the marks themselves are academic records, kept. */
export async function eraseAttendanceRemarks(em: EntityManager, studentId: number): Promise<{ remarks: number; marks: number }> {
  const remarks = await count(em, `update attendance_marks set remark = null where student_id = ? and remark is not null returning event_id`, [studentId]);
  await em.execute(`update attendance_mark_changes set from_remark = null, to_remark = null where student_id = ? and (from_remark is not null or to_remark is not null)`, [studentId]);
  const [row] = await em.execute<{ n: number }[]>(`select count(*)::int as n from attendance_marks where student_id = ?`, [studentId]);
  return { remarks, marks: row!.n };
}

export async function eraseGuardian(em: EntityManager, guardianId: number, at: Date): Promise<{ guardian: number; links: number }> {
  const links = await count(em, `update students set guardian_id = null, updated_at = ? where guardian_id = ? returning id`, [at, guardianId]);
  const guardian = await count(
    em,
    `update guardians set name = 'Erased', lastname = '#' || id, email = 'erased-guardian-' || id || '@erased.invalid', phone = null, active = false, erased_at = ?, updated_at = ?
     where id = ? and erased_at is null returning id`,
    [at, at, guardianId],
  );
  return { guardian, links };
}
