export { loadKeyRing, generateKeyPairFiles, type KeyRing } from './keys.ts';
export { createTokenSigner, createTokenVerifier, type AccessClaims, type TokenSigner, type TokenVerifier } from './tokens.ts';
export { requireAuth, requireRole, requireOwnerOrAdmin, currentUser, type AuthenticatedUser } from './middleware.ts';
export { safeEqual, requireApiKey } from './api-key.ts';
export { hashPassword, verifyPassword, DUMMY_PASSWORD_HASH_PROMISE } from './passwords.ts';
