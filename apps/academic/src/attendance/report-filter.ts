import type { EntityManager } from '@mikro-orm/postgresql';
import type { Actor } from '@academy/auth';
import type { AttendanceReportQuery } from '@academy/contracts';
import { notSubjectTeacher } from './attendance.errors.ts';
import { teachesSubject, type SummaryFilter } from './attendance.store.ts';

/** What the report counts: admins any subject and center; a teacher must name a subject they teach, and sees their students in it. */
export async function reportFilter(em: EntityManager, query: AttendanceReportQuery, actor: Actor): Promise<SummaryFilter> {
  const filter: SummaryFilter = { subjectId: query.subjectId, centerId: query.centerId };
  if (actor.role === 'admin') return filter;
  if (query.subjectId === undefined || actor.employeeId === null) throw notSubjectTeacher();
  if (!(await teachesSubject(em, actor.employeeId, query.subjectId))) throw notSubjectTeacher();
  return { ...filter, taughtBy: actor.employeeId };
}
