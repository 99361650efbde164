import type { Actor } from '@academy/auth';
import type { AcademicContext } from '../shared/academic-context.ts';
import { dayOf, dayRange } from './academy-days.ts';
import { notOwnEmployeeId } from './attendance.errors.ts';
import { selectMissingSheets } from './attendance.store.ts';

export interface MissingAttendanceInput {
  employeeId?: number;
  from?: string;
  to?: string;
}

/** Ended classes with students and no sheet, oldest first: admins any teacher's (or all); a teacher their own. By default the editing window to today. */
export async function listMissingAttendance(ctx: AcademicContext, input: MissingAttendanceInput, actor: Actor) {
  const timeZone = ctx.config.ACADEMY_TIME_ZONE;
  const now = ctx.clock.now();
  const range = dayRange(input, dayOf(now, timeZone), ctx.config.ATTENDANCE_EDIT_DAYS + 1);
  const isAdmin = actor.role === 'admin';
  if (!isAdmin && (actor.employeeId === null || (input.employeeId !== undefined && input.employeeId !== actor.employeeId))) throw notOwnEmployeeId();
  const employeeId = isAdmin ? input.employeeId : (actor.employeeId ?? undefined);
  return { from: range.from, to: range.to, data: await selectMissingSheets(ctx.orm.em, { now, range, timeZone, employeeId }) };
}
