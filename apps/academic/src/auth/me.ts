import type { EntityManager } from '@mikro-orm/postgresql';
import { UnauthorizedError } from '@academy/kit';
import type { MeResponse } from '@academy/contracts';
import { User } from '../shared/entities/user.entity.ts';
import { toAuthUser } from './session-tokens.ts';

/** The user behind a valid access token; a deleted or deactivated one is refused like a bad token. */
export async function me(em: EntityManager, userId: number): Promise<MeResponse> {
  const user = await em.findOne(User, { id: userId });
  if (!user || !user.active) throw new UnauthorizedError();
  return { user: toAuthUser(user) };
}
