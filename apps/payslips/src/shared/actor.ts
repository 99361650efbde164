import type { Request, Response } from 'express';
import { currentUser } from '@academy/auth';
import { requestId } from '@academy/kit';
import { notAnEmployee } from './errors.ts';

/** Who makes a request, as the use cases need it. */
export interface Actor {
  userId: number | null;
  role: 'admin' | 'user';
  /** The employee the token names, if any. */
  employeeId: number | null;
  correlationId: string;
}

export function actorOf(req: Request, res: Response): Actor {
  const user = currentUser(res);
  return {
    userId: Number.isInteger(user.userId) && user.userId > 0 ? user.userId : null,
    role: user.role === 'admin' ? 'admin' : 'user',
    employeeId: typeof user.employeeId === 'number' && Number.isInteger(user.employeeId) && user.employeeId > 0 ? user.employeeId : null,
    correlationId: requestId(req),
  };
}

/** The token's own employee, or 403 NOT_AN_EMPLOYEE. */
export function ownEmployee(actor: Actor): number {
  if (actor.employeeId === null) throw notAnEmployee();
  return actor.employeeId;
}
