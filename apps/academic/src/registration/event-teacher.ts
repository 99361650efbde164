import type { Actor } from '@academy/auth';
import { notEventTeacher } from './registration.errors.ts';

/** Object-level authorization of an event's students (assigning or reading them): admins, or the event's own teacher. */
export function assertTeachesEvent(actor: Actor, event: { id: number; employeeId: number | null }): void {
  if (actor.role === 'admin') return;
  if (actor.employeeId === null || event.employeeId !== actor.employeeId) throw notEventTeacher(event.id);
}
