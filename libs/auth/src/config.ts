import { z } from 'zod';
import { env } from '@academy/kit';
import { loadKeyRing } from './keys.ts';
import { CLOCK_SKEW_SECONDS } from './claims.ts';
import { createTokenVerifier, DEFAULT_MAX_TTL_SECONDS, type TokenVerifier, type VerifierOptions } from './tokens.ts';

/** The JWT variables of every process that checks tokens; spread into its config schema. */
export const jwtConfigShape = {
  JWT_KEYS_DIR: z.string().min(1).default('.local/keys'),
  /** Key ids whose public keys are accepted (two during a rotation); the first signs, in academic. */
  JWT_KEY_IDS: env.list('dev-1'),
  JWT_ISSUER: z.string().min(1).default('academy'),
  JWT_AUDIENCE: z.string().min(1).default('academy-api'),
  /**
   * Longest access-token lifetime accepted (`exp - iat`), 15 minutes when unset (optional, so
   * configurations built by hand, as in tests, need not name it); academic's ACCESS_TOKEN_TTL_SECONDS must fit.
   */
  JWT_MAX_TTL_SECONDS: z.coerce.number().int().positive().optional(),
};

export type JwtConfig = z.infer<z.ZodObject<typeof jwtConfigShape>>;

/**
 * Loads the key ring once and returns a verifier that remembers verified tokens for `cacheMs`
 * (never past their exp; 0 verifies every token). With `revocations`, `authenticate` refuses the
 * tokens of ended sessions, honouring a revocation within `revocationCheckMs`.
 */
export function verifierFromConfig(
  config: JwtConfig,
  cacheMs: number,
  sessions: Pick<VerifierOptions, 'revocations' | 'revocationCheckMs' | 'onRevocationError'> = {},
): TokenVerifier {
  const ring = loadKeyRing(config.JWT_KEYS_DIR, config.JWT_KEY_IDS);
  return createTokenVerifier(ring, {
    issuer: config.JWT_ISSUER,
    audience: config.JWT_AUDIENCE,
    maxTtlSeconds: config.JWT_MAX_TTL_SECONDS ?? DEFAULT_MAX_TTL_SECONDS,
    cache: cacheMs > 0 ? { maxEntries: 10_000, maxAgeMs: cacheMs } : undefined,
    ...sessions,
  });
}

/** How long a revocation is kept: as long as the longest token it can name, plus the clock skew. */
export const revocationTtlSeconds = (config: Pick<JwtConfig, 'JWT_MAX_TTL_SECONDS'>) => (config.JWT_MAX_TTL_SECONDS ?? DEFAULT_MAX_TTL_SECONDS) + CLOCK_SKEW_SECONDS;
