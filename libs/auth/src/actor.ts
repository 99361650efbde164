import type { Request, Response } from 'express';
import { requestId } from '@academy/kit';
import type { Role } from './claims.ts';
import { currentUser } from './middleware.ts';

/** Who makes a request, from its verified token: what the use cases check and record. */
export interface Actor {
  /** The token's user (its `sub`, checked to be an id). */
  userId: number;
  role: Role;
  /** The employee the token names, if any. */
  employeeId: number | null;
  /** The request's id, carried as the correlation id of the events it records. */
  correlationId: string;
}

/** The actor of a request that passed `requireAuth`. */
export function actorOf(req: Request, res: Response): Actor {
  const user = currentUser(res);
  return { userId: user.userId, role: user.role, employeeId: user.employeeId ?? null, correlationId: requestId(req) };
}
