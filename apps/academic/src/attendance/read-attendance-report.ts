import type { Actor } from '@academy/auth';
import type { AttendanceReportQuery } from '@academy/contracts';
import type { AcademicContext } from '../shared/academic-context.ts';
import { dayOf, dayRange } from './academy-days.ts';
import { reportVersions, selectReportRows } from './attendance.store.ts';
import { reportFilter } from './report-filter.ts';

/**
 * The report as JSON text: per student and subject, the percentage, flagged below the threshold.
 * An admin's comes from the report cache (keyed by the versions of what it shows); a teacher's
 * depends on their registrations, which bump no version: computed every time.
 */
export async function readAttendanceReport(ctx: AcademicContext, input: AttendanceReportQuery, actor: Actor): Promise<string> {
  const em = ctx.orm.em;
  const timeZone = ctx.config.ACADEMY_TIME_ZONE;
  const thresholdPercent = ctx.config.ATTENDANCE_WARNING_PERCENT;
  const range = dayRange(input, dayOf(ctx.clock.now(), timeZone), 365);
  const load = async () => {
    const filter = await reportFilter(em, input, actor);
    const threshold = input.below ?? thresholdPercent;
    const rows = await selectReportRows(em, filter, range, timeZone, input.below);
    return { from: range.from, to: range.to, thresholdPercent: threshold, data: rows.map((row) => ({ ...row, below: row.percentage !== null && row.percentage < threshold })) };
  };
  if (actor.role !== 'admin') return JSON.stringify(await load());
  const parts = { from: range.from, to: range.to, timeZone, thresholdPercent, subjectId: input.subjectId, centerId: input.centerId, below: input.below };
  return ctx.attendanceReports.json(() => reportVersions(em, input.subjectId), parts, load);
}
