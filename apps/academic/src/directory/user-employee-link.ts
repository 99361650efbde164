import type { EntityManager } from '@mikro-orm/postgresql';
import { ConflictError } from '@academy/kit';
import { recordEvent } from '@academy/messaging';
import { Employee } from './directory.entities.ts';
import { SOURCE, employeeUpsertedData } from '../shared/events.ts';
import type { Meta } from './directory-page.ts';

/**
 * Keeps `users.employee_id` and `employees.user_id` pointing at each other: links the pair (or
 * unlinks the user when `employeeId` is null), undoes the user's previous link, and records an
 * `employee.upserted` for every employee whose `userId` changed. An employee already linked to
 * another user is a 409: the link is never moved silently (unlink the other user first).
 */
export async function linkUserAndEmployee(tx: EntityManager, link: { userId: number; employeeId: number | null }, meta: Meta): Promise<Set<number>> {
  if (link.employeeId !== null) {
    const [taken] = await tx.execute<{ id: number }[]>(
      `select id from users where employee_id = ? and id <> ? union select user_id from employees where id = ? and user_id <> ? limit 1`,
      [link.employeeId, link.userId, link.employeeId, link.userId],
    );
    if (taken) throw new ConflictError('EMPLOYEE_ALREADY_LINKED', `Employee ${link.employeeId} is already linked to user ${taken.id}`);
  }
  const changed = new Set<number>();
  const previous = await tx.execute<{ id: number }[]>(`update employees set user_id = null, updated_at = now() where user_id = ? and id is distinct from ? returning id`, [link.userId, link.employeeId]);
  previous.forEach((row) => changed.add(row.id));
  await tx.execute(`update users set employee_id = ?, updated_at = now() where id = ?`, [link.employeeId, link.userId]);
  if (link.employeeId !== null) {
    await tx.execute(`update users set employee_id = null, updated_at = now() where employee_id = ? and id is distinct from ?`, [link.employeeId, link.userId]);
    const updated = await tx.execute<{ id: number }[]>(`update employees set user_id = ?, updated_at = now() where id = ? and user_id is distinct from ? returning id`, [link.userId, link.employeeId, link.userId]);
    updated.forEach((row) => changed.add(row.id));
  }
  if (changed.size === 0) return changed;
  const employeesChanged = await tx.find(Employee, { id: { $in: [...changed] } }, { refresh: true });
  for (const employee of employeesChanged) recordEvent(tx, 'employee.upserted', employeeUpsertedData(employee), { source: SOURCE, ...meta });
  return changed;
}
