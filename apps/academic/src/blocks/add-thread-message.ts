import type { Actor } from '@academy/auth';
import type { AcademicContext } from '../shared/academic-context.ts';
import { insertMessage } from './blocks.store.ts';
import { threadTarget, toMessage } from './thread-access.ts';

/** Adds the caller's message (as admin or as the teacher) to the thread. */
export async function addThreadMessage(ctx: AcademicContext, input: { studentBlockId: number; message: string }, actor: Actor) {
  await threadTarget(ctx.orm.em, input.studentBlockId, actor);
  const row = await insertMessage(ctx.orm.em, { studentBlockId: input.studentBlockId, authorUserId: actor.userId, authorRole: actor.role === 'admin' ? 'admin' : 'teacher', body: input.message });
  return { ok: true as const, data: toMessage(row) };
}
