import type { Actor } from '@academy/auth';
import type { AcademicContext } from '../shared/academic-context.ts';
import { selectMarkChanges } from './attendance.store.ts';
import { classForReading } from './teacher-class.ts';

/** Every change of a class's marks, oldest first: who, when, from → to. */
export async function readAttendanceHistory(ctx: AcademicContext, input: { eventId: number }, actor: Actor) {
  await classForReading(ctx.orm.em, input.eventId, actor, { timeZone: ctx.config.ACADEMY_TIME_ZONE, now: ctx.clock.now() });
  const rows = await selectMarkChanges(ctx.orm.em, input.eventId);
  return {
    data: rows.map((row) => ({
      studentId: row.studentId,
      from: { status: row.fromStatus, minutesLate: row.fromMinutesLate, remark: row.fromRemark },
      to: { status: row.toStatus, minutesLate: row.toMinutesLate, remark: row.toRemark },
      byUserId: row.byUserId,
      at: row.at,
    })),
  };
}
