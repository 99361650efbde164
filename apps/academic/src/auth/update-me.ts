import type { Actor } from '@academy/auth';
import { UnauthorizedError } from '@academy/kit';
import type { MeResponse, UpdateMeBody } from '@academy/contracts';
import type { AcademicContext } from '../shared/academic-context.ts';
import { findUser, toAuthUser } from './auth.store.ts';

/** The user changes their own settings (their notifications' language). */
export async function updateMe(ctx: AcademicContext, input: UpdateMeBody, actor: Actor): Promise<MeResponse> {
  const em = ctx.orm.em;
  const user = await findUser(em, actor.userId);
  if (!user || !user.active) throw new UnauthorizedError();
  user.locale = input.locale;
  await em.flush();
  return { user: toAuthUser(user) };
}
