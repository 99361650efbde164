import type { AttendanceSheetResponse } from '@academy/contracts';
import type { Actor } from '@academy/auth';
import type { AcademicContext } from '../shared/academic-context.ts';
import { readSheet } from './attendance.store.ts';
import { classForReading, sheetWindow } from './teacher-class.ts';

/** A class's roster with its marks, who took it and when, the students not marked yet, and its editing window for the caller. */
export async function readAttendanceSheet(ctx: AcademicContext, input: { eventId: number }, actor: Actor): Promise<AttendanceSheetResponse> {
  const event = await classForReading(ctx.orm.em, input.eventId, actor, { timeZone: ctx.config.ACADEMY_TIME_ZONE, now: ctx.clock.now(), editDays: ctx.config.ATTENDANCE_EDIT_DAYS });
  return { ...(await readSheet(ctx.orm.em, event, 0)), window: sheetWindow(actor, event) };
}
