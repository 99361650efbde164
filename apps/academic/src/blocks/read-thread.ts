import type { Actor } from '@academy/auth';
import type { AcademicContext } from '../shared/academic-context.ts';
import { selectMessages } from './blocks.store.ts';
import { threadTarget, toMessage } from './thread-access.ts';

/** The thread of a student block, oldest message first. */
export async function readThread(ctx: AcademicContext, input: { studentBlockId: number }, actor: Actor) {
  const target = await threadTarget(ctx.orm.em, input.studentBlockId, actor);
  const rows = await selectMessages(ctx.orm.em, input.studentBlockId);
  return { ok: true as const, studentBlockId: input.studentBlockId, blockId: target.blockId, studentId: target.studentId, status: target.status, messages: rows.map(toMessage) };
}
