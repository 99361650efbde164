import type { EntityManager } from '@mikro-orm/postgresql';
import { DUMMY_PASSWORD_HASH_PROMISE, verifyPassword } from '@academy/auth';
import { UnauthorizedError } from '@academy/kit';
import type { LoginBody, TokenPair } from '@academy/contracts';
import { User } from '../shared/entities/user.entity.ts';
import type { LoginProtection } from './login-protection.ts';
import { issueTokens, type SessionTokens } from './session-tokens.ts';

/**
 * Checks the password and starts a session. An unknown e-mail is verified against a dummy hash,
 * so it costs the same time as a wrong password and gets the same answer; both count as a failed
 * login of that (e-mail, IP), and a blocked pair or IP is a 429 before any password is checked.
 */
export async function login(em: EntityManager, tokens: SessionTokens, input: LoginBody, attempt: { ip: string; protection: LoginProtection }): Promise<TokenPair> {
  const email = input.email.trim().toLowerCase();
  await attempt.protection.assertAllowed(email, attempt.ip);
  const user = await em.findOne(User, { email });
  const passwordMatches = await verifyPassword(input.password, user?.passwordHash ?? (await DUMMY_PASSWORD_HASH_PROMISE));
  if (!user || !passwordMatches || !user.active) {
    await attempt.protection.failed(email, attempt.ip);
    throw new UnauthorizedError('Invalid email or password', 'INVALID_CREDENTIALS');
  }
  await attempt.protection.succeeded(email, attempt.ip);
  const pair = issueTokens(em, tokens, user);
  await em.flush();
  return pair;
}
