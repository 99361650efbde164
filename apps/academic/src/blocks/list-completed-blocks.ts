import type { Actor } from '@academy/auth';
import type { CompletedBlocksQuery } from '@academy/contracts';
import { pageMeta, pageTotal } from '@academy/kit';
import type { AcademicContext } from '../shared/academic-context.ts';
import { notAnEmployee, schoolCourseNotFound } from './blocks.errors.ts';
import { findSchoolCourseId, selectCompletedPage } from './blocks.store.ts';
import { isoTime } from './iso-time.ts';
import { studentBlockFields } from './student-block-fields.ts';

/**
 * Closed blocks of the students registered in a school course (the latest by default) in the
 * block's subject, newest approval first, a page at a time. An admin sees all; an employee those
 * of the registrations that name them; anyone else is refused.
 */
export async function listCompletedBlocks(ctx: AcademicContext, input: CompletedBlocksQuery, actor: Actor) {
  const em = ctx.orm.em;
  const isAdmin = actor.role === 'admin';
  if (!isAdmin && actor.employeeId === null) throw notAnEmployee();
  const schoolCourseId = await findSchoolCourseId(em, input.schoolCourseId);
  if (schoolCourseId === null) throw schoolCourseNotFound();
  const { rows, total } = await selectCompletedPage(em, { ...input, schoolCourseId, employeeId: isAdmin ? undefined : (actor.employeeId ?? undefined) }, (page, count) =>
    pageTotal(page, input.page, count),
  );
  return {
    ok: true as const,
    schoolCourseId,
    data: rows.map((row) => ({ ...studentBlockFields(row), closedAt: isoTime(row.closedAt), approvedAt: isoTime(row.approvedAt) })),
    meta: pageMeta(total, input.page, input.limit),
  };
}
