import type { Express } from 'express';
import {
  attendanceReportRoute,
  listAttendanceStatusesRoute,
  missingAttendanceRoute,
  readAttendanceHistoryRoute,
  readAttendanceSheetRoute,
  replaceAttendanceStatusesRoute,
  studentAttendanceRoute,
  takeAttendanceRoute,
} from '@academy/contracts';
import { actorOf } from '@academy/auth';
import { routeBinder } from '@academy/service';
import type { AcademicContext } from '../shared/academic-context.ts';
import { listStatuses, replaceStatuses } from './attendance-statuses.ts';
import { takeAttendance } from './take-attendance.ts';
import { readAttendanceHistory, readAttendanceReport, readAttendanceSheet, readStudentAttendance, reportFilters } from './read-attendance.ts';
import { streamReportCsv } from './attendance-report-csv.ts';
import { listMissingAttendance } from './missing-attendance.ts';
import { dayOf, dayRange } from './academy-days.ts';
import { isAdmin } from './attendance-actor.ts';
import { AttendanceReportCache } from './attendance-report-cache.ts';

/** `/api/v2/attendance/*`: statuses, taking and reading a class's sheet, summaries, the report, missing sheets. */
export function registerAttendanceRoutes(app: Express, ctx: AcademicContext): void {
  const bind = routeBinder(app, ctx);
  const em = () => ctx.orm.em;
  const config = ctx.config;
  const timeZone = config.ACADEMY_TIME_ZONE;
  const settings = {
    timeZone,
    editDays: config.ATTENDANCE_EDIT_DAYS,
    thresholdPercent: config.ATTENDANCE_WARNING_PERCENT,
    minSessions: config.ATTENDANCE_WARNING_MIN_SESSIONS,
  };
  const today = () => dayOf(ctx.clock.now(), timeZone);
  const reportCache = new AttendanceReportCache(ctx.redis, { logger: ctx.logger });

  bind(listAttendanceStatusesRoute, async ({ res }) => {
    res.json({ data: await listStatuses(em()) });
  });
  bind(replaceAttendanceStatusesRoute, async ({ body, res }) => {
    res.json({ data: await replaceStatuses(em(), body) });
  });

  bind(takeAttendanceRoute, async ({ params, body, req, res }) => {
    const sheet = await takeAttendance(em(), params.eventId, body, actorOf(req, res), ctx.clock.now(), settings);
    if (sheet.changed) ctx.relay.nudge();
    res.json(sheet);
  });
  bind(readAttendanceSheetRoute, async ({ params, req, res }) => {
    res.json(await readAttendanceSheet(em(), params.eventId, actorOf(req, res), timeZone, ctx.clock.now()));
  });
  bind(readAttendanceHistoryRoute, async ({ params, req, res }) => {
    res.json(await readAttendanceHistory(em(), params.eventId, actorOf(req, res), timeZone, ctx.clock.now()));
  });

  bind(studentAttendanceRoute, async ({ params, query, req, res }) => {
    res.json(await readStudentAttendance(em(), params.studentId, query, dayRange(query, today(), 365), actorOf(req, res), timeZone));
  });

  bind(attendanceReportRoute, async ({ query, req, res }) => {
    const range = dayRange(query, today(), 365);
    const actor = actorOf(req, res);
    if (req.accepts(['application/json', 'text/csv']) !== 'text/csv') {
      const load = () => readAttendanceReport(em(), query, range, actor, settings);
      // Admins' reports only: a teacher's depends on their registrations, which bump no version.
      if (!isAdmin(actor)) {
        res.json(await load());
        return;
      }
      const parts = { from: range.from, to: range.to, timeZone, thresholdPercent: settings.thresholdPercent, subjectId: query.subjectId, centerId: query.centerId, below: query.below };
      res.type('application/json').send(await reportCache.json(em(), parts, load));
      return;
    }
    const { filters, params } = await reportFilters(em(), query, actor);
    res.type('text/csv; charset=utf-8').attachment(`attendance-${range.from}-${range.to}.csv`);
    try {
      await streamReportCsv(em(), res, { range, filters, params, below: query.below, threshold: query.below ?? settings.thresholdPercent, timeZone });
    } catch (error) {
      // Once rows have gone out, no error body can follow: the response is cut short instead.
      if (!res.headersSent) throw error;
      ctx.logger.warn({ err: error }, 'attendance CSV report ended early');
      res.destroy();
    }
  });

  bind(missingAttendanceRoute, async ({ query, req, res }) => {
    const range = dayRange(query, today(), config.ATTENDANCE_EDIT_DAYS + 1);
    res.json(await listMissingAttendance(em(), query, range, actorOf(req, res), timeZone, ctx.clock.now()));
  });
}
