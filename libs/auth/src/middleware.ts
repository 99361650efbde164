import type { Request, RequestHandler } from 'express';
import { ForbiddenError, UnauthorizedError } from '@academy/kit';
import type { AccessClaims, TokenVerifier } from './tokens.ts';

export interface AuthenticatedUser extends AccessClaims {
  userId: number;
}

export interface AuthFailure {
  /** The message of the 401 body; the spec fixes it per route family. */
  message?: string;
  code?: string;
}

/** Verifies `Authorization: Bearer <jwt>` and puts the user on `res.locals.user`; 401 otherwise. */
export function requireAuth(verifier: TokenVerifier, failure: AuthFailure = {}): RequestHandler {
  return (req, res, next) => {
    const header = req.headers.authorization;
    const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
    const claims = token ? verifier.verify(token) : null;
    if (!claims) return next(new UnauthorizedError(failure.message ?? 'Unauthorized', failure.code ?? 'UNAUTHORIZED'));
    res.locals.user = { ...claims, userId: Number(claims.sub) } satisfies AuthenticatedUser;
    next();
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
export function requireRole(role: AccessClaims['role'] | AccessClaims['role'][], failure: AuthFailure & { status?: 401 | 403 } = {}): RequestHandler {
  const allowed = Array.isArray(role) ? role : [role];
  return (_req, res, next) => {
    const user = res.locals.user as AuthenticatedUser | undefined;
    if (user && allowed.includes(user.role)) return next();
    if (failure.status === 401 || !user) return next(new UnauthorizedError(failure.message ?? 'Unauthorized', failure.code ?? 'UNAUTHORIZED'));
    next(new ForbiddenError(failure.message ?? 'Forbidden', failure.code ?? 'FORBIDDEN'));
  };
}

/** Admins pass; a user passes when `ownerOf(req)` names their own employee/user id. */
export function requireOwnerOrAdmin(ownerOf: (req: Request, user: AuthenticatedUser) => boolean): RequestHandler {
  return (req, res, next) => {
    const user = res.locals.user as AuthenticatedUser | undefined;
    if (!user) return next(new UnauthorizedError());
    if (user.role === 'admin' || ownerOf(req, user)) return next();
    next(new ForbiddenError('You may only access your own records'));
  };
}
