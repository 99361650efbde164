import type { Actor } from '@academy/auth';
import type { AcademicContext } from '../shared/academic-context.ts';
import { dayOf, dayRange } from './academy-days.ts';
import { notOwnEmployeeId } from './attendance.errors.ts';
import { selectClassStates } from './attendance.store.ts';

export interface AttendanceClassesInput {
  employeeId?: number;
  from?: string;
  to?: string;
}

/**
 * The classes that start in the range (today by default), by start, each with its attendance state
 * (taken, missing: ended without a sheet, notYet) and editing window: a teacher's Today. Admins any
 * teacher's (or all); a teacher their own (another's employeeId: 403).
 */
export async function listAttendanceClasses(ctx: AcademicContext, input: AttendanceClassesInput, actor: Actor) {
  const timeZone = ctx.config.ACADEMY_TIME_ZONE;
  const now = ctx.clock.now();
  const range = dayRange(input, dayOf(now, timeZone), 1);
  const isAdmin = actor.role === 'admin';
  if (!isAdmin && (actor.employeeId === null || (input.employeeId !== undefined && input.employeeId !== actor.employeeId))) throw notOwnEmployeeId();
  const employeeId = isAdmin ? input.employeeId : (actor.employeeId ?? undefined);
  const data = await selectClassStates(ctx.orm.em, { now, range, timeZone, editDays: ctx.config.ATTENDANCE_EDIT_DAYS, employeeId });
  return { from: range.from, to: range.to, data };
}
