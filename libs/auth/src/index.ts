export { loadKeyRing, generateKeyPairFiles, type KeyRing } from './keys.ts';
export { createTokenSigner, createTokenVerifier, ALGORITHM, MAX_TOKEN_LENGTH, type AccessClaims, type TokenOptions, type VerifierOptions, type TokenSigner, type TokenVerifier } from './tokens.ts';
export { requireAuth, requireRole, requireOwnerOrAdmin, currentUser, bearerToken, type AuthenticatedUser, type AuthFailure } from './middleware.ts';
export { safeEqual, requireApiKey } from './api-key.ts';
export { forgedTokens } from './forged-tokens.ts';
export { hashPassword, verifyPassword, DUMMY_PASSWORD_HASH_PROMISE } from './passwords.ts';
export { jwtConfigShape, verifierFromConfig, type JwtConfig } from './config.ts';
