import type { EntityManager } from '@mikro-orm/postgresql';
import { UnauthorizedError } from '@academy/kit';
import type { MeResponse, UpdateMeBody } from '@academy/contracts';
import { User } from '../shared/entities/user.entity.ts';
import { toAuthUser } from './session-tokens.ts';

/** The user behind a valid access token; a deleted or deactivated one is refused like a bad token. */
export async function me(em: EntityManager, userId: number): Promise<MeResponse> {
  const user = await em.findOne(User, { id: userId });
  if (!user || !user.active) throw new UnauthorizedError();
  return { user: toAuthUser(user) };
}

/** The user changes their own settings (their notifications' language). */
export async function updateMe(em: EntityManager, userId: number, changes: UpdateMeBody): Promise<MeResponse> {
  const user = await em.findOne(User, { id: userId });
  if (!user || !user.active) throw new UnauthorizedError();
  user.locale = changes.locale;
  await em.flush();
  return { user: toAuthUser(user) };
}
