import type { Locale, ReportQuery } from '@academy/contracts';
import type { Actor } from '../shared/actor.ts';
import { employeeNameOf } from '../shared/employees.store.ts';
import type { IncidentsContext } from '../shared/incidents-context.ts';
import { monthBounds } from '../shared/time.ts';
import { renderReportPdf, type MonthlyReport } from './report-pdf.ts';
import { knownTargetEmployee } from './target-employee.ts';
import { monthIncidents, reportLines } from './time-records.store.ts';

export interface MonthlyReportInput extends ReportQuery {
  /** The document's language. */
  locale: Locale;
}

/** `GET /timerecord/report.pdf`: the month's time sheet of one employee (own; admins any) as a PDF, in the academy's time zone. */
export async function monthlyReport(ctx: IncidentsContext, input: MonthlyReportInput, actor: Actor): Promise<{ report: MonthlyReport; pdf: Buffer }> {
  const employeeId = await knownTargetEmployee(ctx, actor, input.employeeId);
  const month = monthBounds(input.month);
  const timeZone = ctx.config.ACADEMY_TIME_ZONE;
  const now = ctx.clock.now();
  const [lines, incidents, employeeName] = await Promise.all([
    reportLines(ctx.db.query, employeeId, month, timeZone, now),
    monthIncidents(ctx.db.query, employeeId, month, timeZone),
    employeeNameOf(ctx.db.query, employeeId),
  ]);
  const totalMinutes = lines.reduce((sum, line) => sum + line.minutes, 0);
  const report = { employeeId, employeeName, month: input.month, timeZone, lines, incidents, totalMinutes, generatedAt: now };
  return { report, pdf: await renderReportPdf(report, input.locale) };
}
