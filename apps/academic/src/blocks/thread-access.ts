import type { EntityManager } from '@mikro-orm/postgresql';
import type { Actor } from '@academy/auth';
import type { ThreadMessage } from '@academy/contracts';
import { notTheTeacher, studentBlockNotFound } from './blocks.errors.ts';
import { findThreadTarget, type MessageRow, type ThreadTarget } from './blocks.store.ts';
import { isoTime } from './iso-time.ts';

/** The student block, if the caller may see its thread: 404 when missing, 403 for anyone but an admin or the student's teacher. */
export async function threadTarget(em: EntityManager, studentBlockId: number, actor: Actor): Promise<ThreadTarget> {
  const target = await findThreadTarget(em, studentBlockId, actor.employeeId);
  if (!target) throw studentBlockNotFound();
  if (actor.role !== 'admin' && !target.callerTeaches) throw notTheTeacher();
  return target;
}

export const toMessage = (row: MessageRow): ThreadMessage => ({ ...row, createdAt: isoTime(row.createdAt)! });
