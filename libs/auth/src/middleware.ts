import type { Request, RequestHandler } from 'express';
import { ForbiddenError, UnauthorizedError } from '@academy/kit';
import type { TokenVerifier, VerifiedClaims } from './tokens.ts';

export interface AuthenticatedUser extends VerifiedClaims {
  userId: number;
}

export interface AuthFailure {
  /** The message of the 401 body; the spec fixes it per route family. */
  message?: string;
  code?: string;
}

/** The token of an `Authorization: Bearer <jwt>` header (scheme case-insensitive), or undefined. */
export function bearerToken(header: string | undefined): string | undefined {
  if (!header || header.length < 8 || header.slice(0, 7).toLowerCase() !== 'bearer ') return undefined;
  const token = header.slice(7).trim();
  return token || undefined;
}

/**
 * Verifies `Authorization: Bearer <jwt>` (signature, claims, and that its session was not ended)
 * and puts the user on `res.locals.user`; 401 otherwise. Its answers are `Cache-Control: no-store`
 * (one user's data, kept by no cache) unless the route sets a Cache-Control of its own.
 */
export function requireAuth(verifier: TokenVerifier, failure: AuthFailure = {}): RequestHandler {
  return (req, res, next) => {
    res.setHeader('cache-control', 'no-store');
    const token = bearerToken(req.headers.authorization);
    const refuse = () => next(new UnauthorizedError(failure.message ?? 'Unauthorized', failure.code ?? 'UNAUTHORIZED'));
    if (!token) return refuse();
    verifier.authenticate(token).then((claims) => {
      if (!claims) return refuse();
      res.locals.user = { ...claims, userId: Number(claims.sub) } satisfies AuthenticatedUser;
      next();
    }, next);
  };
}

export function currentUser(res: { locals: Record<string, unknown> }): AuthenticatedUser {
  const user = res.locals.user as AuthenticatedUser | undefined;
  if (!user) throw new UnauthorizedError();
  return user;
}

/**
 * Only the given roles pass. `status` 401 fits routes whose spec answers 401 to a non-admin
 * (blocks review); elsewhere 403.
 */
export function requireRole(role: VerifiedClaims['role'] | VerifiedClaims['role'][], failure: AuthFailure & { status?: 401 | 403 } = {}): RequestHandler {
  const allowed = Array.isArray(role) ? role : [role];
  return (_req, res, next) => {
    const user = res.locals.user as AuthenticatedUser | undefined;
    if (user && allowed.includes(user.role)) return next();
    if (failure.status === 401 || !user) return next(new UnauthorizedError(failure.message ?? 'Unauthorized', failure.code ?? 'UNAUTHORIZED'));
    next(new ForbiddenError(failure.message ?? 'Forbidden', failure.code ?? 'FORBIDDEN'));
  };
}

/** Admins pass; a user passes when `ownerOf(req)` names their own employee/user id. */
export function requireOwnerOrAdmin(ownerOf: (req: Request, user: AuthenticatedUser) => boolean, failure: AuthFailure = {}): RequestHandler {
  return (req, res, next) => {
    const user = res.locals.user as AuthenticatedUser | undefined;
    if (!user) return next(new UnauthorizedError(failure.message ?? 'Unauthorized', failure.code ?? 'UNAUTHORIZED'));
    if (user.role === 'admin' || ownerOf(req, user)) return next();
    next(new ForbiddenError(failure.message ?? 'You may only access your own records', failure.code ?? 'FORBIDDEN'));
  };
}
