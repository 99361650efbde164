import { timeRecordsContract } from '@academy/contracts';
import { ownEmployee } from '../shared/actor.ts';
import { implement } from '../shared/incidents-context.ts';
import { clockIn, clockOut, openRecord } from './clock.ts';
import { readHistory } from './history.ts';
import { monthlyReport, renderReportPdf } from './report-pdf.ts';

/** `/api/v2/timerecord/*`: the token's employee clocks in and out; history and report (own, or any for admins). */
export const timeRecordRoutes = implement(timeRecordsContract, {
  clockIn: async ({ body }, ctx, actor) => ({ status: 201, body: { message: 'Clocked in', data: await clockIn(ctx, ownEmployee(actor), body, actor) } }),

  clockOut: async ({ body }, ctx, actor) => ({ status: 200, body: { message: 'Clocked out', data: await clockOut(ctx, ownEmployee(actor), body, actor) } }),

  openRecord: async (_input, ctx, actor) => ({ status: 200, body: await openRecord(ctx, ownEmployee(actor)) }),

  history: async ({ query }, ctx, actor) => ({ status: 200, body: await readHistory(ctx, actor, query) }),

  reportPdf: async ({ query, req }, ctx, actor) => {
    const report = await monthlyReport(ctx, actor, query);
    // In the reader's language as their client asks for it (the service keeps no login's choice); English otherwise.
    const locale = req.acceptsLanguages('en', 'es') === 'es' ? 'es' : 'en';
    return {
      status: 200,
      body: await renderReportPdf(report, locale),
      headers: {
        'content-type': 'application/pdf',
        'content-language': locale,
        vary: 'Accept-Language',
        'content-disposition': `attachment; filename="time-records-${report.employeeId}-${report.month}.pdf"`,
      },
    };
  },
});
