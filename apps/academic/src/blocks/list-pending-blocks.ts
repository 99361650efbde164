import type { Actor } from '@academy/auth';
import type { PendingBlocksQuery, PendingBlocksResponse } from '@academy/contracts';
import type { AcademicContext } from '../shared/academic-context.ts';
import { selectPendingPage } from './blocks.store.ts';
import { isoTime } from './iso-time.ts';

/** The spec's pending listing: every `pending` block (or a page of them), oldest close first, grouped by student in the order of their oldest one. */
export async function listPendingBlocks(ctx: AcademicContext, input: PendingBlocksQuery, _actor: Actor): Promise<PendingBlocksResponse> {
  const rows = await selectPendingPage(ctx.orm.em, input);
  if (!rows) return { ok: true, total: 0, byStudent: [] };
  const groups = new Map<number, PendingBlocksResponse['byStudent'][number]>();
  for (const row of rows) {
    let group = groups.get(row.studentId);
    if (!group) groups.set(row.studentId, (group = { studentId: row.studentId, studentName: row.studentName ?? '', blocks: [] }));
    group.blocks.push({
      studentBlockId: row.studentBlockId,
      blockId: row.blockId,
      blockName: row.blockName,
      subjectId: row.subjectId,
      subjectName: row.subjectName,
      grade: row.grade,
      status: 'pending',
      employeeId: row.employeeId,
      employeeName: row.employeeName,
      closedAt: isoTime(row.closedAt),
    });
  }
  return { ok: true, total: rows.length, byStudent: [...groups.values()] };
}
