import type { EntityManager } from '@mikro-orm/postgresql';
import { DUMMY_PASSWORD_HASH_PROMISE, verifyPassword } from '@academy/auth';
import { UnauthorizedError } from '@academy/kit';
import type { LoginBody, TokenPair } from '@academy/contracts';
import { User } from '../shared/entities/user.entity.ts';
import { issueTokens, type SessionTokens } from './session-tokens.ts';

/**
 * Checks the password and starts a session. An unknown e-mail is verified against a dummy hash,
 * so it costs the same time as a wrong password and gets the same answer.
 */
export async function login(em: EntityManager, tokens: SessionTokens, input: LoginBody): Promise<TokenPair> {
  const user = await em.findOne(User, { email: input.email.trim().toLowerCase() });
  const passwordMatches = await verifyPassword(input.password, user?.passwordHash ?? (await DUMMY_PASSWORD_HASH_PROMISE));
  if (!user || !passwordMatches || !user.active) throw new UnauthorizedError('Invalid email or password', 'INVALID_CREDENTIALS');
  const pair = issueTokens(em, tokens, user);
  await em.flush();
  return pair;
}
