import { createTokenSigner, loadKeyRing, type TokenSigner } from '@academy/auth';
import type { Clock } from '@academy/kit';
import type { Config } from '../config.ts';

export interface SessionTokens {
  signer: TokenSigner;
  accessTtlSeconds: number;
  refreshTtlSeconds: number;
  /** "Now" for the tokens' expiries (the service's clock). */
  clock: Clock;
}

/** Loads the signing key (the first of JWT_KEY_IDS) once, at start; an access TTL every verifier would refuse stops the start. */
export function createSessionTokens(config: Config, clock: Clock): SessionTokens {
  const maxTtl = config.JWT_MAX_TTL_SECONDS ?? 15 * 60;
  if (config.ACCESS_TOKEN_TTL_SECONDS > maxTtl) throw new Error(`ACCESS_TOKEN_TTL_SECONDS (${config.ACCESS_TOKEN_TTL_SECONDS}) is over JWT_MAX_TTL_SECONDS (${maxTtl}): every verifier would refuse the tokens`);
  const ring = loadKeyRing(config.JWT_KEYS_DIR, config.JWT_KEY_IDS, config.JWT_KEY_IDS[0]);
  return {
    signer: createTokenSigner(ring, { issuer: config.JWT_ISSUER, audience: config.JWT_AUDIENCE }),
    accessTtlSeconds: config.ACCESS_TOKEN_TTL_SECONDS,
    refreshTtlSeconds: config.REFRESH_TOKEN_TTL_SECONDS,
    clock,
  };
}
