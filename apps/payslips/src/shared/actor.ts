import type { Actor } from '@academy/auth';
import { notAnEmployee } from './errors.ts';

/** The token's own employee, or 403 NOT_AN_EMPLOYEE. */
export function ownEmployee(actor: Actor): number {
  if (actor.employeeId === null) throw notAnEmployee();
  return actor.employeeId;
}
