import jwt from 'jsonwebtoken';
import { AccessTokenPayload, checkTimes, type Role } from './claims.ts';
import type { KeyRing } from './keys.ts';
import type { SessionRevocations } from './revocation.ts';

/** The only algorithm signed and accepted: `alg: none`, HS256 and anything else are refused. */
export const ALGORITHM = 'ES256' as const;

export interface AccessClaims {
  sub: string;
  role: Role;
  employeeId?: number;
  studentId?: number;
  /** Session id: the refresh-token family the token was issued for (revoked at logout). */
  sid?: string;
}

export interface TokenOptions {
  issuer: string;
  audience: string;
}

export interface VerifierOptions extends TokenOptions {
  /** Longest lifetime (`exp - iat`) accepted; a token claiming more is refused. 15 minutes when omitted. */
  maxTtlSeconds?: number;
  /**
   * Keeps verified tokens for at most `maxAgeMs` (never past their `exp`), so a hot token is not
   * re-verified on every request. Off when omitted.
   */
  cache?: { maxEntries: number; maxAgeMs: number };
  /**
   * Ended sessions: `authenticate` refuses their tokens. A token's "not revoked" answer is
   * remembered for `revocationCheckMs` (default 2 s), which bounds how late a revocation is honoured.
   */
  revocations?: SessionRevocations;
  revocationCheckMs?: number;
  /** Called when the revocation store cannot answer; the token is then accepted (fail open). */
  onRevocationError?: (error: unknown) => void;
}

export interface TokenSigner {
  sign(claims: AccessClaims, ttlSeconds: number): string;
}

export interface TokenVerifier {
  /** The claims of a validly signed, well-formed, unexpired token, or null (never throws). Revocation is not checked. */
  verify(token: string): VerifiedClaims | null;
  /** `verify`, then the session is checked against the revocations: null when ended (never throws). */
  authenticate(token: string): Promise<VerifiedClaims | null>;
  /** These sessions were ended (an announced revocation): their remembered tokens are refused from now on. */
  sessionsEnded(sessionIds: string[]): void;
  /** Revocations may have been missed (announcements lost): every remembered token is checked again on its next use. */
  recheckSessions(): void;
}

export function createTokenSigner(ring: KeyRing, options: TokenOptions): TokenSigner {
  const signing = ring.signing;
  if (!signing) throw new Error('the key ring has no private key to sign with');
  return {
    sign: (claims, ttlSeconds) =>
      jwt.sign({ role: claims.role, employeeId: claims.employeeId, studentId: claims.studentId, sid: claims.sid }, signing.privateKey, {
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

/** The claims of a verified token, with its expiry (what holds a session open, such as a socket, ends with it). */
export interface VerifiedClaims extends AccessClaims {
  /** Expiry, epoch seconds. */
  exp: number;
}

interface Verified {
  claims: VerifiedClaims;
  iat: number;
}

interface CachedToken extends Verified {
  expiresAt: number;
  /** Until when "not revoked" holds without asking the store again. */
  checkedUntil: number;
  revoked: boolean;
  checking?: Promise<void>;
}

const DEFAULT_REVOCATION_CHECK_MS = 2000;
export const DEFAULT_MAX_TTL_SECONDS = 15 * 60;

export function createTokenVerifier(ring: KeyRing, options: VerifierOptions): TokenVerifier {
  const verifyOnce = (token: string): Verified | null => {
    if (token.length > MAX_TOKEN_LENGTH) return null;
    try {
      const decoded = jwt.decode(token, { complete: true });
      if (!decoded || decoded.header.alg !== ALGORITHM) return null;
      const kid = decoded.header.kid;
      const key = kid ? ring.publicKeys.get(kid) : undefined;
      if (!key) return null;
      const verified = jwt.verify(token, key, {
        algorithms: [ALGORITHM],
        issuer: options.issuer,
        audience: options.audience,
      });
      const parsed = AccessTokenPayload.safeParse(verified);
      if (!parsed.success || !checkTimes(parsed.data, options.maxTtlSeconds ?? DEFAULT_MAX_TTL_SECONDS)) return null;
      const { sub, role, employeeId, studentId, sid, iat, exp } = parsed.data;
      return { claims: { sub, role, employeeId, studentId, sid, exp }, iat };
    } catch {
      return null;
    }
  };

  const { revocations, cache: cacheOptions } = options;
  const checkMs = options.revocationCheckMs ?? DEFAULT_REVOCATION_CHECK_MS;
  // Insertion-ordered Map: the oldest entry goes first when full. Only valid tokens are cached.
  const cache = new Map<string, CachedToken>();

  const lookup = (token: string): CachedToken | null => {
    const now = Date.now();
    const hit = cache.get(token);
    if (hit) {
      if (hit.expiresAt > now) return hit;
      cache.delete(token);
    }
    const verified = verifyOnce(token);
    if (!verified) return null;
    const entry: CachedToken = { ...verified, expiresAt: Math.min(verified.claims.exp * 1000, now + (cacheOptions?.maxAgeMs ?? 0)), checkedUntil: 0, revoked: false };
    if (cacheOptions) {
      if (cache.size >= cacheOptions.maxEntries) cache.delete(cache.keys().next().value as string);
      cache.set(token, entry);
    }
    return entry;
  };

  const check = async (entry: CachedToken): Promise<void> => {
    try {
      entry.revoked = await revocations!.isRevoked({ sid: entry.claims.sid });
    } catch (error) {
      // The store is away: accept the token (an outage of Redis must not log everyone out) and ask again soon.
      options.onRevocationError?.(error);
    }
    entry.checkedUntil = Date.now() + checkMs;
  };

  return {
    verify: (token) => lookup(token)?.claims ?? null,
    sessionsEnded(sessionIds) {
      const ended = new Set(sessionIds);
      for (const entry of cache.values()) if (entry.claims.sid && ended.has(entry.claims.sid)) entry.revoked = true;
    },
    recheckSessions() {
      for (const entry of cache.values()) entry.checkedUntil = 0;
    },
    async authenticate(token) {
      const entry = lookup(token);
      if (!entry) return null;
      // A token without a session id (not issued by a login) has no session to end.
      if (!revocations || !entry.claims.sid || entry.revoked) return entry.revoked ? null : entry.claims;
      if (entry.checkedUntil <= Date.now()) {
        // Concurrent requests with one token share one lookup.
        entry.checking ??= check(entry).finally(() => (entry.checking = undefined));
        await entry.checking;
      }
      return entry.revoked ? null : entry.claims;
    },
  };
}
