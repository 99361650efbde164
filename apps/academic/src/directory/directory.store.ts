// The SQL of the directory beyond its entities: students per calendar event, and the user ↔ employee
// link kept on both sides (`users.employee_id`, `employees.user_id`).
import type { EntityManager } from '@mikro-orm/postgresql';
import { pgArray } from '@academy/db';

/** How many students each of the events has (absent: none). */
export async function countEventStudents(em: EntityManager, eventIds: number[]): Promise<Map<number, number>> {
  const rows = eventIds.length
    ? await em.execute<{ eventId: number; count: number }[]>(`select event_id as "eventId", count(*)::int as count from event_students where event_id = any(?::int[]) group by event_id`, [pgArray(eventIds)])
    : [];
  return new Map(rows.map((row) => [row.eventId, row.count]));
}

/** Another user the employee is linked with (from either side), if any. */
export async function findOtherLinkedUser(tx: EntityManager, link: { userId: number; employeeId: number }): Promise<number | undefined> {
  const [taken] = await tx.execute<{ id: number }[]>(
    `select id from users where employee_id = ? and id <> ? union select user_id from employees where id = ? and user_id <> ? limit 1`,
    [link.employeeId, link.userId, link.employeeId, link.userId],
  );
  return taken?.id;
}

/**
 * Links the user with the employee (or unlinks the user when `employeeId` is null) on both sides,
 * undoing the user's previous link and any other user's link to that employee; answers the
 * employees whose `user_id` changed.
 */
export async function writeUserEmployeeLink(tx: EntityManager, link: { userId: number; employeeId: number | null }): Promise<Set<number>> {
  const changed = new Set<number>();
  const previous = await tx.execute<{ id: number }[]>(`update employees set user_id = null, updated_at = now() where user_id = ? and id is distinct from ? returning id`, [link.userId, link.employeeId]);
  previous.forEach((row) => changed.add(row.id));
  await tx.execute(`update users set employee_id = ?, updated_at = now() where id = ?`, [link.employeeId, link.userId]);
  if (link.employeeId !== null) {
    await tx.execute(`update users set employee_id = null, updated_at = now() where employee_id = ? and id is distinct from ?`, [link.employeeId, link.userId]);
    const updated = await tx.execute<{ id: number }[]>(`update employees set user_id = ?, updated_at = now() where id = ? and user_id is distinct from ? returning id`, [link.userId, link.employeeId, link.userId]);
    updated.forEach((row) => changed.add(row.id));
  }
  return changed;
}
