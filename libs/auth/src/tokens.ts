import jwt from 'jsonwebtoken';
import type { KeyRing } from './keys.ts';

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

const MAX_TOKEN_LENGTH = 4096;

export function createTokenVerifier(ring: KeyRing, options: TokenOptions): TokenVerifier {
  return {
    verify(token) {
      if (token.length > MAX_TOKEN_LENGTH) return null;
      try {
        const decoded = jwt.decode(token, { complete: true });
        const kid = decoded?.header.kid;
        const key = kid ? ring.publicKeys.get(kid) : undefined;
        if (!key) return null;
        const payload = jwt.verify(token, key, {
          algorithms: [ALGORITHM],
          issuer: options.issuer,
          audience: options.audience,
        });
        if (typeof payload === 'string' || typeof payload.exp !== 'number' || typeof payload.sub !== 'string') return null;
        if (payload.role !== 'admin' && payload.role !== 'user') return null;
        return {
          sub: payload.sub,
          role: payload.role,
          employeeId: typeof payload.employeeId === 'number' ? payload.employeeId : undefined,
          studentId: typeof payload.studentId === 'number' ? payload.studentId : undefined,
        };
      } catch {
        return null;
      }
    },
  };
}
