import { Router } from 'express';
import { ClockBody, HistoryQuery, ReportQuery } from '@academy/contracts';
import { noQuery } from '@academy/kit';
import { actorOf, ownEmployee } from '../shared/actor.ts';
import type { IncidentsContext } from '../shared/incidents-context.ts';
import { clockIn, clockOut, openRecord } from './clock.ts';
import { readHistory } from './history.ts';
import { monthlyReport, renderReportPdf } from './report-pdf.ts';

/** `/api/v2/timerecord/*`: the token's employee clocks in and out; history and report (own, or any for admins). */
export function timeRecordsRouter(incidents: IncidentsContext): Router {
  const router = Router();

  router.post('/clock-in', noQuery, async (req, res) => {
    const actor = actorOf(req, res);
    const employeeId = ownEmployee(actor);
    const input = ClockBody.parse(req.body ?? {});
    const data = await clockIn(incidents, employeeId, input, actor);
    res.status(201).json({ message: 'Clocked in', data });
  });

  router.post('/clock-out', noQuery, async (req, res) => {
    const actor = actorOf(req, res);
    const employeeId = ownEmployee(actor);
    const input = ClockBody.parse(req.body ?? {});
    const data = await clockOut(incidents, employeeId, input, actor);
    res.json({ message: 'Clocked out', data });
  });

  router.get('/open', noQuery, async (req, res) => {
    res.json(await openRecord(incidents, ownEmployee(actorOf(req, res))));
  });

  router.get('/history', async (req, res) => {
    const input = HistoryQuery.parse(req.query);
    res.json(await readHistory(incidents, actorOf(req, res), input));
  });

  router.get('/report.pdf', async (req, res) => {
    const input = ReportQuery.parse(req.query);
    const report = await monthlyReport(incidents, actorOf(req, res), input);
    const pdf = await renderReportPdf(report);
    res
      .type('application/pdf')
      .setHeader('content-disposition', `attachment; filename="time-records-${report.employeeId}-${report.month}.pdf"`)
      .send(pdf);
  });

  return router;
}
