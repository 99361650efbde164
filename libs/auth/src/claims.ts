import { z } from 'zod';
import { Id, IdText } from '@academy/contracts';

export const ROLES = ['admin', 'user'] as const;
export type Role = (typeof ROLES)[number];

/** How far a token's `iat` may be ahead of this clock (the signer's clock may run a little fast). */
export const CLOCK_SKEW_SECONDS = 30;

/**
 * The claims of an access token, checked after its signature: a signed token is still refused
 * (401) when its subject is not a strict id (`abc`, ` 1`, `0x1`), its role unknown, its ids not
 * ids, its session id not a UUID, or `iat`/`exp` missing. `iss`, `aud`, `nbf` are checked by the
 * JWT library; the time bounds by `checkTimes`.
 */
export const AccessTokenPayload = z.object({
  sub: z.string().refine((sub) => IdText.safeParse(sub).success, { error: 'must be a user id' }),
  role: z.enum(ROLES),
  employeeId: Id.optional(),
  studentId: Id.optional(),
  /** The session (refresh-token family) the token belongs to; revoking it ends the token. */
  sid: z.uuid().optional(),
  iat: z.number().int(),
  exp: z.number().int(),
});
export type AccessTokenPayload = z.infer<typeof AccessTokenPayload>;

/**
 * `iat` not ahead of now beyond the skew, and a lifetime (`exp - iat`) of at most `maxTtlSeconds`:
 * a token valid for millions of years, or issued "tomorrow", was not signed by our signer as
 * configured (a leaked key or a bug), so it is refused.
 */
export function checkTimes(payload: Pick<AccessTokenPayload, 'iat' | 'exp'>, maxTtlSeconds: number, nowSeconds = Date.now() / 1000): boolean {
  return payload.iat <= nowSeconds + CLOCK_SKEW_SECONDS && payload.exp > payload.iat && payload.exp - payload.iat <= maxTtlSeconds;
}
