// Who may act on a student's blocks: administrators, and the student's teacher in the subject — an
// employee named by one of the student's registrations in it that is not cancelled.

export interface BlockActor {
  userId: number | null;
  role: 'admin' | 'user';
  employeeId: number | null;
  correlationId: string;
}

export const isAdmin = (actor: BlockActor) => actor.role === 'admin';

/**
 * SQL condition, true when the employee given as its one `?` parameter teaches the student
 * `studentColumn` in the subject `subjectColumn`. A null employee teaches no one.
 */
export const teachesSql = (studentColumn: string, subjectColumn: string) =>
  `exists (select 1 from registrations r where r.student_id = ${studentColumn} and r.subject_id = ${subjectColumn} and r.employee_id = ? and r.status <> 'cancelled')`;

/** SQL scalar: the teacher of the student's registration in the subject in the latest course they have one (not cancelled), or null. */
export const registrationTeacherSql = (studentColumn: string, subjectColumn: string) =>
  `(select r.employee_id from registrations r join school_courses c on c.id = r.school_course_id
     where r.student_id = ${studentColumn} and r.subject_id = ${subjectColumn} and r.status <> 'cancelled' and r.employee_id is not null
     order by c.start_date desc, c.id desc limit 1)`;
