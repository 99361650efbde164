import jwt from 'jsonwebtoken';
import type { KeyRing } from './keys.ts';

/** The only algorithm signed and accepted: `alg: none`, HS256 and anything else are refused. */
export const ALGORITHM = 'ES256' as const;

export interface AccessClaims {
  sub: string;
  role: 'admin' | 'user';
  employeeId?: number;
  studentId?: number;
}

export interface TokenOptions {
  issuer: string;
  audience: string;
}

export interface VerifierOptions extends TokenOptions {
  /**
   * Keeps verified tokens for at most `maxAgeMs` (never past their `exp`), so a hot token is not
   * re-verified on every request. Off when omitted.
   */
  cache?: { maxEntries: number; maxAgeMs: number };
}

export interface TokenSigner {
  sign(claims: AccessClaims, ttlSeconds: number): string;
}

export interface TokenVerifier {
  /** Returns the claims of a valid token, or null for anything else (never throws). */
  verify(token: string): AccessClaims | null;
}

export function createTokenSigner(ring: KeyRing, options: TokenOptions): TokenSigner {
  const signing = ring.signing;
  if (!signing) throw new Error('the key ring has no private key to sign with');
  return {
    sign: (claims, ttlSeconds) =>
      jwt.sign({ role: claims.role, employeeId: claims.employeeId, studentId: claims.studentId }, signing.privateKey, {
        algorithm: ALGORITHM,
        keyid: signing.kid,
        subject: claims.sub,
        issuer: options.issuer,
        audience: options.audience,
        expiresIn: ttlSeconds,
      }),
  };
}

/** Longer than any token we sign; a bigger one is refused before it is parsed. */
export const MAX_TOKEN_LENGTH = 4096;

interface CachedClaims {
  claims: AccessClaims;
  expiresAt: number;
}

export function createTokenVerifier(ring: KeyRing, options: VerifierOptions): TokenVerifier {
  const verifyOnce = (token: string): { claims: AccessClaims; exp: number } | null => {
    if (token.length > MAX_TOKEN_LENGTH) return null;
    try {
      const decoded = jwt.decode(token, { complete: true });
      if (!decoded || decoded.header.alg !== ALGORITHM) return null;
      const kid = decoded.header.kid;
      const key = kid ? ring.publicKeys.get(kid) : undefined;
      if (!key) return null;
      const payload = jwt.verify(token, key, {
        algorithms: [ALGORITHM],
        issuer: options.issuer,
        audience: options.audience,
      });
      if (typeof payload === 'string' || typeof payload.exp !== 'number' || typeof payload.sub !== 'string') return null;
      if (payload.role !== 'admin' && payload.role !== 'user') return null;
      const claims: AccessClaims = {
        sub: payload.sub,
        role: payload.role,
        employeeId: typeof payload.employeeId === 'number' ? payload.employeeId : undefined,
        studentId: typeof payload.studentId === 'number' ? payload.studentId : undefined,
      };
      return { claims, exp: payload.exp };
    } catch {
      return null;
    }
  };

  const cacheOptions = options.cache;
  if (!cacheOptions) return { verify: (token) => verifyOnce(token)?.claims ?? null };

  // Insertion-ordered Map: the oldest entry goes first when full. Only valid tokens are cached.
  const cache = new Map<string, CachedClaims>();
  return {
    verify(token) {
      const now = Date.now();
      const hit = cache.get(token);
      if (hit) {
        if (hit.expiresAt > now) return hit.claims;
        cache.delete(token);
      }
      const verified = verifyOnce(token);
      if (!verified) return null;
      if (cache.size >= cacheOptions.maxEntries) cache.delete(cache.keys().next().value as string);
      cache.set(token, { claims: verified.claims, expiresAt: Math.min(verified.exp * 1000, now + cacheOptions.maxAgeMs) });
      return verified.claims;
    },
  };
}
