import { z } from 'zod';
import { env } from '@academy/kit';
import { loadKeyRing } from './keys.ts';
import { createTokenVerifier, type TokenVerifier } from './tokens.ts';

/** The JWT variables of every process that checks tokens; spread into its config schema. */
export const jwtConfigShape = {
  JWT_KEYS_DIR: z.string().min(1).default('.local/keys'),
  /** Key ids whose public keys are accepted (two during a rotation); the first signs, in academic. */
  JWT_KEY_IDS: env.list('dev-1'),
  JWT_ISSUER: z.string().min(1).default('academy'),
  JWT_AUDIENCE: z.string().min(1).default('academy-api'),
};

export type JwtConfig = z.infer<z.ZodObject<typeof jwtConfigShape>>;

/**
 * Loads the key ring once and returns a verifier that remembers verified tokens for `cacheMs`
 * (never past their exp; 0 verifies every token).
 */
export function verifierFromConfig(config: JwtConfig, cacheMs: number): TokenVerifier {
  const ring = loadKeyRing(config.JWT_KEYS_DIR, config.JWT_KEY_IDS);
  return createTokenVerifier(ring, {
    issuer: config.JWT_ISSUER,
    audience: config.JWT_AUDIENCE,
    cache: cacheMs > 0 ? { maxEntries: 10_000, maxAgeMs: cacheMs } : undefined,
  });
}
