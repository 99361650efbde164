import type { Express } from 'express';
import { clockInRoute, clockOutRoute, historyRoute, openRecordRoute, reportPdfRoute } from '@academy/contracts';
import { routeBinder } from '@academy/service';
import { actorOf, ownEmployee } from '../shared/actor.ts';
import type { IncidentsContext } from '../shared/incidents-context.ts';
import { clockIn, clockOut, openRecord } from './clock.ts';
import { readHistory } from './history.ts';
import { monthlyReport, renderReportPdf } from './report-pdf.ts';

/** `/api/v2/timerecord/*`: the token's employee clocks in and out; history and report (own, or any for admins). */
export function registerTimeRecordRoutes(app: Express, deps: IncidentsContext): void {
  const bind = routeBinder(app, deps);

  bind(clockInRoute, async ({ body, req, res }) => {
    const actor = actorOf(req, res);
    const data = await clockIn(deps, ownEmployee(actor), body, actor);
    res.status(201).json({ message: 'Clocked in', data });
  });

  bind(clockOutRoute, async ({ body, req, res }) => {
    const actor = actorOf(req, res);
    const data = await clockOut(deps, ownEmployee(actor), body, actor);
    res.json({ message: 'Clocked out', data });
  });

  bind(openRecordRoute, async ({ req, res }) => {
    res.json(await openRecord(deps, ownEmployee(actorOf(req, res))));
  });

  bind(historyRoute, async ({ query, req, res }) => {
    res.json(await readHistory(deps, actorOf(req, res), query));
  });

  bind(reportPdfRoute, async ({ query, req, res }) => {
    const report = await monthlyReport(deps, actorOf(req, res), query);
    // In the reader's language as their client asks for it (the service keeps no login's choice); English otherwise.
    const locale = req.acceptsLanguages('en', 'es') === 'es' ? 'es' : 'en';
    const pdf = await renderReportPdf(report, locale);
    res
      .type('application/pdf')
      .set({ 'content-language': locale, vary: 'Accept-Language' })
      .setHeader('content-disposition', `attachment; filename="time-records-${report.employeeId}-${report.month}.pdf"`)
      .send(pdf);
  });
}
