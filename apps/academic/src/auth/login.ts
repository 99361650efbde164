import { DUMMY_PASSWORD_HASH_PROMISE, verifyPassword } from '@academy/auth';
import { UnauthorizedError } from '@academy/kit';
import type { LoginBody, TokenPair } from '@academy/contracts';
import type { AcademicContext } from '../shared/academic-context.ts';
import { findUserByEmail, issueTokens } from './auth.store.ts';

/**
 * Checks the password and starts a session. An unknown e-mail is verified against a dummy hash,
 * so it costs the same time as a wrong password and gets the same answer; both count as a failed
 * login of that (e-mail, IP), and a blocked pair or IP is a 429 before any password is checked.
 * `ip`: the client address the gateway passed on.
 */
export async function login(ctx: AcademicContext, input: LoginBody & { ip: string }): Promise<TokenPair> {
  const { loginProtection: protection } = ctx;
  const em = ctx.orm.em;
  const email = input.email.trim().toLowerCase();
  await protection.assertAllowed(email, input.ip);
  const user = await findUserByEmail(em, email);
  const passwordMatches = await verifyPassword(input.password, user?.passwordHash ?? (await DUMMY_PASSWORD_HASH_PROMISE));
  if (!user || !passwordMatches || !user.active) {
    await protection.failed(email, input.ip);
    throw new UnauthorizedError('Invalid email or password', 'INVALID_CREDENTIALS');
  }
  await protection.succeeded(email, input.ip);
  const pair = issueTokens(em, ctx.tokens, user);
  await em.flush();
  return pair;
}
