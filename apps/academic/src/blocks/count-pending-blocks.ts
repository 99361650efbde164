import type { Actor } from '@academy/auth';
import type { PendingCountQuery, PendingCountResponse } from '@academy/contracts';
import type { AcademicContext } from '../shared/academic-context.ts';
import { countPending } from './blocks.store.ts';

/** The badge: how many blocks await review (of a subject). */
export async function countPendingBlocks(ctx: AcademicContext, input: PendingCountQuery, _actor: Actor): Promise<PendingCountResponse> {
  return { ok: true, count: await countPending(ctx.orm.em, input) };
}
