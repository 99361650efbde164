export { loadKeyRing, generateKeyPairFiles, type KeyRing } from './keys.ts';
export { createTokenSigner, createTokenVerifier, ALGORITHM, MAX_TOKEN_LENGTH, type AccessClaims, type VerifiedClaims, type TokenOptions, type VerifierOptions, type TokenSigner, type TokenVerifier } from './tokens.ts';
export { requireAuth, requireRole, requireOwnerOrAdmin, currentUser, bearerToken, type AuthenticatedUser, type AuthFailure } from './middleware.ts';
export { actorOf, type Actor } from './actor.ts';
export { safeEqual, requireApiKey } from './api-key.ts';
export { hashPassword, verifyPassword, DUMMY_PASSWORD_HASH_PROMISE } from './passwords.ts';
export { jwtConfigShape, verifierFromConfig, revocationTtlSeconds, type JwtConfig } from './config.ts';
export { AccessTokenPayload, checkTimes, CLOCK_SKEW_SECONDS, ROLES, type Role } from './claims.ts';
export { createSessionRevocations, followRevocations, onSessionsEnded, revocationChannel, REVOCATION_KEY_PREFIX, type RevocationFeed, type SessionRevocations, type SessionsEndedListener, type RevocableToken } from './revocation.ts';
