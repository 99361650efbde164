import type { Actor } from '@academy/auth';
import { notAnEmployee } from './errors.ts';

export { actorOf, type Actor } from '@academy/auth';

/** The token's own employee, or 403 NOT_AN_EMPLOYEE. */
export function ownEmployee(actor: Actor): number {
  if (actor.employeeId === null) throw notAnEmployee();
  return actor.employeeId;
}
