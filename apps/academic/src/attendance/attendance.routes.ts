import {
  attendanceClassesRoute,
  attendanceReportRoute,
  contract,
  listAttendanceStatusesRoute,
  missingAttendanceRoute,
  readAttendanceHistoryRoute,
  readAttendanceSheetRoute,
  replaceAttendanceStatusesRoute,
  studentAttendanceRoute,
  takeAttendanceRoute,
} from '@academy/contracts';
import { implement } from '../shared/academic-context.ts';
import { JSON_TEXT, sentAsIs } from '../shared/sent-as-is.ts';
import { listAttendanceClasses } from './list-attendance-classes.ts';
import { listAttendanceStatuses } from './list-attendance-statuses.ts';
import { listMissingAttendance } from './list-missing-attendance.ts';
import { readAttendanceHistory } from './read-attendance-history.ts';
import { readAttendanceReport } from './read-attendance-report.ts';
import { readAttendanceSheet } from './read-attendance-sheet.ts';
import { readStudentAttendance } from './read-student-attendance.ts';
import { replaceAttendanceStatuses } from './replace-attendance-statuses.ts';
import { streamAttendanceReport } from './stream-attendance-report.ts';
import { takeAttendance } from './take-attendance.ts';

/** The attendance routes by name (`/api/v2/attendance/*`), which `attendanceRoutes` implements key for key. */
export const attendanceContract = contract({
  listStatuses: listAttendanceStatusesRoute,
  replaceStatuses: replaceAttendanceStatusesRoute,
  take: takeAttendanceRoute,
  readSheet: readAttendanceSheetRoute,
  readHistory: readAttendanceHistoryRoute,
  student: studentAttendanceRoute,
  report: attendanceReportRoute,
  missing: missingAttendanceRoute,
  classes: attendanceClassesRoute,
});

/** Statuses, taking and reading a class's sheet, summaries, the report (JSON or CSV), missing sheets. */
export const attendanceRoutes = implement(attendanceContract, {
  listStatuses: async (_input, ctx, actor) => ({ status: 200, body: { data: await listAttendanceStatuses(ctx, {}, actor) } }),
  replaceStatuses: async ({ body }, ctx, actor) => ({ status: 200, body: { data: await replaceAttendanceStatuses(ctx, body, actor) } }),
  take: async ({ params, body }, ctx, actor) => ({ status: 200, body: await takeAttendance(ctx, { ...body, eventId: params.eventId }, actor) }),
  readSheet: async ({ params }, ctx, actor) => ({ status: 200, body: await readAttendanceSheet(ctx, { eventId: params.eventId }, actor) }),
  readHistory: async ({ params }, ctx, actor) => ({ status: 200, body: await readAttendanceHistory(ctx, { eventId: params.eventId }, actor) }),
  student: async ({ params, query }, ctx, actor) => ({ status: 200, body: await readStudentAttendance(ctx, { ...query, studentId: params.studentId }, actor) }),
  report: async ({ query, req }, ctx, actor) => {
    if (req.accepts(['application/json', 'text/csv']) !== 'text/csv') {
      const json = await readAttendanceReport(ctx, query, actor);
      return { status: 200, body: sentAsIs(Buffer.from(json)), headers: JSON_TEXT };
    }
    const file = await streamAttendanceReport(ctx, query, actor);
    const headers: Record<string, string> = { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="${file.fileName}"` };
    return { status: 200, body: sentAsIs(file.content), headers };
  },
  missing: async ({ query }, ctx, actor) => ({ status: 200, body: await listMissingAttendance(ctx, query, actor) }),
  classes: async ({ query }, ctx, actor) => ({ status: 200, body: await listAttendanceClasses(ctx, query, actor) }),
});
