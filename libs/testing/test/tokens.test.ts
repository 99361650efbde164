import { describe, expect, test } from '@jest/globals';
import { createTokenVerifier, loadKeyRing } from '@academy/auth';
import { TEST_AUDIENCE, TEST_ISSUER, TEST_KEYS_DIR, TEST_KID, tokenFor } from '../src/index.ts';

describe('test tokens', () => {
  test('tokenFor signs a token that the services verifier accepts, with its claims', () => {
    const signedAt = Math.floor(Date.now() / 1000);
    const token = tokenFor({ sub: '12', role: 'user', employeeId: 7 });
    const verifier = createTokenVerifier(loadKeyRing(TEST_KEYS_DIR, [TEST_KID]), { issuer: TEST_ISSUER, audience: TEST_AUDIENCE });
    // The verified claims carry the token's expiry (VerifiedClaims.exp): tokenFor's default lifetime is 900 s.
    const claims = verifier.verify(token)!;
    expect(claims).toEqual({ sub: '12', role: 'user', employeeId: 7, studentId: undefined, exp: expect.any(Number) });
    expect(claims.exp - signedAt).toBeGreaterThanOrEqual(900);
    expect(claims.exp - signedAt).toBeLessThanOrEqual(901);
  });
});
