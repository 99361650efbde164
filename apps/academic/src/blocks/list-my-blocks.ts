import type { Actor } from '@academy/auth';
import type { MyBlocksQuery, MyBlocksResponse } from '@academy/contracts';
import type { z } from 'zod';
import type { AcademicContext } from '../shared/academic-context.ts';
import { notAnEmployee } from './blocks.errors.ts';
import { latestSchoolCourseId, selectTeacherBlocks } from './blocks.store.ts';
import { isoTime } from './iso-time.ts';

/**
 * What a teacher acts on (the console's Blocks): for each registration of the latest school course
 * that names the caller (not cancelled), the subject's blocks of that student that are open (to
 * close) or pending (closed, awaiting review); an open one rejected before is `rejected`, with the
 * reason of its last rejection from the thread.
 */
export async function listMyBlocks(ctx: AcademicContext, input: MyBlocksQuery, actor: Actor): Promise<z.input<typeof MyBlocksResponse>> {
  if (actor.employeeId === null) throw notAnEmployee();
  const em = ctx.orm.em.fork();
  const schoolCourseId = await latestSchoolCourseId(em);
  if (!schoolCourseId) return { ok: true, schoolCourseId: null, total: 0, blocks: [] };
  const rows = await selectTeacherBlocks(em, { schoolCourseId, employeeId: actor.employeeId, subjectId: input.subjectId });
  const blocks = rows.map((row) => ({
    ...row,
    state: row.status === 'pending' ? ('pending' as const) : row.rejectedAt ? ('rejected' as const) : ('open' as const),
    closedAt: isoTime(row.closedAt),
    rejectedAt: isoTime(row.rejectedAt),
  }));
  return { ok: true, schoolCourseId, total: blocks.length, blocks };
}
