import type { EntityManager } from '@mikro-orm/postgresql';
import type { Actor } from '@academy/auth';
import { eventNotFound, notEventTeacher } from './attendance.errors.ts';
import { findClass, type AttendanceClass } from './attendance.store.ts';

/** Whether the actor may take or read the class's attendance: an admin, or the class's teacher. */
export const teachesClass = (actor: Actor, event: Pick<AttendanceClass, 'employeeId'>) =>
  actor.role === 'admin' || (actor.employeeId !== null && event.employeeId === actor.employeeId);

/** The class, for an admin or its teacher: 404 when there is none, 403 to anyone else. Its `locksAt` is right only with `editDays` given. */
export async function classForReading(em: EntityManager, eventId: number, actor: Actor, window: { timeZone: string; now: Date; editDays?: number }): Promise<AttendanceClass> {
  const event = await findClass(em, eventId, { editDays: 0, ...window });
  if (!event) throw eventNotFound();
  if (!teachesClass(actor, event)) throw notEventTeacher(eventId);
  return event;
}

/** The sheet's editing window for the actor (its teacher or an admin): open from `opensAt`; a teacher's until `locksAt`. */
export const sheetWindow = (actor: Actor, event: Pick<AttendanceClass, 'opensAt' | 'locksAt' | 'opened' | 'locked'>) => ({
  opensAt: event.opensAt,
  locksAt: event.locksAt,
  editable: event.opened && (actor.role === 'admin' || !event.locked),
});
