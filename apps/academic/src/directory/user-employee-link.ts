import type { EntityManager } from '@mikro-orm/postgresql';
import { ConflictError } from '@academy/kit';
import { Employee } from './directory.entities.ts';
import { SOURCE, recordEmployeeUpserted } from '../shared/events.ts';
import type { EmployeeMeta } from './directory.types.ts';
import { findOtherLinkedUser, writeUserEmployeeLink } from './directory.store.ts';

/**
 * Keeps `users.employee_id` and `employees.user_id` pointing at each other: links the pair (or
 * unlinks the user when `employeeId` is null), undoes the user's previous link, and records an
 * `employee.upserted` for every employee whose `userId` changed. An employee already linked to
 * another user is a 409: the link is never moved silently (unlink the other user first).
 */
export async function linkUserAndEmployee(tx: EntityManager, link: { userId: number; employeeId: number | null }, meta: EmployeeMeta): Promise<Set<number>> {
  if (link.employeeId !== null) {
    const taken = await findOtherLinkedUser(tx, { userId: link.userId, employeeId: link.employeeId });
    if (taken !== undefined) throw new ConflictError('EMPLOYEE_ALREADY_LINKED', `Employee ${link.employeeId} is already linked to user ${taken}`);
  }
  const changed = await writeUserEmployeeLink(tx, link);
  if (changed.size === 0) return changed;
  const employeesChanged = await tx.find(Employee, { id: { $in: [...changed] } }, { refresh: true });
  for (const employee of employeesChanged) recordEmployeeUpserted(tx, employee, { source: SOURCE, ...meta });
  return changed;
}
