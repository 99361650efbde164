import { ForbiddenError } from '@academy/kit';
import type { Actor } from '../shared/actor.ts';
import { notAnEmployee } from '../shared/errors.ts';
import type { IncidentsContext } from '../shared/incidents-context.ts';
import { employeeIdRequired, employeeNotFound } from './time-records.errors.ts';
import { isKnownEmployee } from './time-records.store.ts';

/** Whose records: a user only their own; an admin whoever they name (or their own). */
export function targetEmployee(actor: Actor, requested: number | undefined): number {
  if (actor.role === 'admin') {
    const employeeId = requested ?? actor.employeeId;
    if (employeeId == null) throw employeeIdRequired();
    return employeeId;
  }
  if (actor.employeeId === null) throw notAnEmployee();
  if (requested !== undefined && requested !== actor.employeeId) throw new ForbiddenError('You may only read your own time records');
  return actor.employeeId;
}

/**
 * `targetEmployee`, and a 404 when the employee is not one this service knows: neither in the
 * employees replica (deactivated and deleted ones stay there) nor on any time record. An unknown
 * id answers "not found", not an empty history or report.
 */
export async function knownTargetEmployee(ctx: IncidentsContext, actor: Actor, requested: number | undefined): Promise<number> {
  const employeeId = targetEmployee(actor, requested);
  if (!(await isKnownEmployee(ctx.db.query, employeeId))) throw employeeNotFound();
  return employeeId;
}
