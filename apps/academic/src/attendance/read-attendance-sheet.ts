import type { AttendanceSheetResponse } from '@academy/contracts';
import type { Actor } from '@academy/auth';
import type { AcademicContext } from '../shared/academic-context.ts';
import { readSheet } from './attendance.store.ts';
import { classForReading } from './teacher-class.ts';

/** A class's roster with its marks, who took it and when, and the students not marked yet. */
export async function readAttendanceSheet(ctx: AcademicContext, input: { eventId: number }, actor: Actor): Promise<AttendanceSheetResponse> {
  const event = await classForReading(ctx.orm.em, input.eventId, actor, { timeZone: ctx.config.ACADEMY_TIME_ZONE, now: ctx.clock.now() });
  return readSheet(ctx.orm.em, event, 0);
}
