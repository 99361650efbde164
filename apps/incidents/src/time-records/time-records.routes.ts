import { timeRecordsContract } from '@academy/contracts';
import { implement } from '../shared/incidents-context.ts';
import { clockIn } from './clock-in.ts';
import { clockOut } from './clock-out.ts';
import { monthlyReport } from './monthly-report.ts';
import { readHistory } from './read-history.ts';
import { readOpenRecord } from './read-open-record.ts';

/** `/api/v2/timerecord/*`: the token's employee clocks in and out; history and report (own, or any for admins). */
export const timeRecordRoutes = implement(timeRecordsContract, {
  clockIn: async ({ body }, ctx, actor) => ({ status: 201, body: { message: 'Clocked in', data: await clockIn(ctx, body, actor) } }),

  clockOut: async ({ body }, ctx, actor) => ({ status: 200, body: { message: 'Clocked out', data: await clockOut(ctx, body, actor) } }),

  openRecord: async (_input, ctx, actor) => ({ status: 200, body: await readOpenRecord(ctx, {}, actor) }),

  history: async ({ query }, ctx, actor) => ({ status: 200, body: await readHistory(ctx, query, actor) }),

  reportPdf: async ({ query, req }, ctx, actor) => {
    // In the reader's language as their client asks for it (the service keeps no login's choice); English otherwise.
    const locale = req.acceptsLanguages('en', 'es') === 'es' ? 'es' : 'en';
    const { report, pdf } = await monthlyReport(ctx, { ...query, locale }, actor);
    return {
      status: 200,
      body: pdf,
      headers: {
        'content-type': 'application/pdf',
        'content-language': locale,
        vary: 'Accept-Language',
        'content-disposition': `attachment; filename="time-records-${report.employeeId}-${report.month}.pdf"`,
      },
    };
  },
});
