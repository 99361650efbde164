import type { Actor } from '@academy/auth';
import { UnauthorizedError } from '@academy/kit';
import type { MeResponse } from '@academy/contracts';
import type { AcademicContext } from '../shared/academic-context.ts';
import { findUser, toAuthUser } from './auth.store.ts';

/** The user behind a valid access token; a deleted or deactivated one is refused like a bad token. */
export async function readMe(ctx: AcademicContext, _input: Record<string, never>, actor: Actor): Promise<MeResponse> {
  const user = await findUser(ctx.orm.em, actor.userId);
  if (!user || !user.active) throw new UnauthorizedError();
  return { user: toAuthUser(user) };
}
