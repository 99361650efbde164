import { Router, type Express } from 'express';
import { AttendanceReportQuery, AttendanceStatusesBody, MissingAttendanceQuery, StudentAttendanceQuery, TakeAttendanceBody } from '@academy/contracts';
import { actorOf, requireAuth, requireRole } from '@academy/auth';
import { idParam, noQuery } from '@academy/kit';
import type { AcademicContext } from '../shared/academic-context.ts';
import { listStatuses, replaceStatuses } from './attendance-statuses.ts';
import { takeAttendance } from './take-attendance.ts';
import { readAttendanceHistory, readAttendanceReport, readAttendanceSheet, readStudentAttendance, reportFilters } from './read-attendance.ts';
import { streamReportCsv } from './attendance-report-csv.ts';
import { listMissingAttendance } from './missing-attendance.ts';
import { dayOf, dayRange } from './academy-days.ts';

/** `/api/v2/attendance/*`: statuses, taking and reading a class's sheet, summaries, the report, missing sheets. */
export function registerAttendanceRoutes(app: Express, ctx: AcademicContext): void {
  const router = Router();
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
  router.use(requireAuth(ctx.verifier));

  router.get('/statuses', noQuery, async (_req, res) => {
    res.json({ data: await listStatuses(em()) });
  });
  router.put('/statuses', requireRole('admin'), noQuery, async (req, res) => {
    res.json({ data: await replaceStatuses(em(), AttendanceStatusesBody.parse(req.body)) });
  });

  router.put('/events/:eventId', noQuery, async (req, res) => {
    const eventId = idParam(req.params, 'eventId');
    const sheet = await takeAttendance(em(), eventId, TakeAttendanceBody.parse(req.body), actorOf(req, res), ctx.clock.now(), settings);
    if (sheet.changed) ctx.relay.nudge();
    res.json(sheet);
  });
  router.get('/events/:eventId', noQuery, async (req, res) => {
    res.json(await readAttendanceSheet(em(), idParam(req.params, 'eventId'), actorOf(req, res), timeZone, ctx.clock.now()));
  });
  router.get('/events/:eventId/history', noQuery, async (req, res) => {
    res.json(await readAttendanceHistory(em(), idParam(req.params, 'eventId'), actorOf(req, res), timeZone, ctx.clock.now()));
  });

  router.get('/students/:studentId', async (req, res) => {
    const studentId = idParam(req.params, 'studentId');
    const query = StudentAttendanceQuery.parse(req.query);
    res.json(await readStudentAttendance(em(), studentId, query, dayRange(query, today(), 365), actorOf(req, res), timeZone));
  });

  router.get('/report', async (req, res) => {
    const query = AttendanceReportQuery.parse(req.query);
    const range = dayRange(query, today(), 365);
    const actor = actorOf(req, res);
    if (req.accepts(['application/json', 'text/csv']) !== 'text/csv') {
      res.json(await readAttendanceReport(em(), query, range, actor, settings));
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

  router.get('/missing', async (req, res) => {
    const query = MissingAttendanceQuery.parse(req.query);
    const range = dayRange(query, today(), config.ATTENDANCE_EDIT_DAYS + 1);
    res.json(await listMissingAttendance(em(), query, range, actorOf(req, res), timeZone, ctx.clock.now()));
  });

  app.use('/api/v2/attendance', router);
}
