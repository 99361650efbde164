import PDFDocument from 'pdfkit';
import type { ReportQuery } from '@academy/contracts';
import type { Actor } from '../shared/actor.ts';
import type { IncidentsContext } from '../shared/incidents-context.ts';
import { formatMinutes, monthBounds } from '../shared/time.ts';
import { targetEmployee, workedDays, type DayRow } from './history.ts';
import { employeeNameOf } from '../incidents/employee-names.ts';

export interface MonthlyReport {
  employeeId: number;
  employeeName: string | null;
  month: string;
  timeZone: string;
  days: DayRow[];
  totalMinutes: number;
}

/** The month's records and totals of one employee, oldest day first. */
export async function monthlyReport(incidents: IncidentsContext, actor: Actor, input: ReportQuery): Promise<MonthlyReport> {
  const employeeId = targetEmployee(actor, input.employeeId);
  const { from, to } = monthBounds(input.month);
  const timeZone = incidents.config.WORK_TIME_ZONE;
  const [{ days, totalMinutes }, employeeName] = await Promise.all([
    workedDays(incidents.db.query, incidents.clock.now(), employeeId, from, to, timeZone, { limit: null, offset: 0 }),
    employeeNameOf(incidents.db.query, employeeId),
  ]);
  return { employeeId, employeeName, month: input.month, timeZone, days: days.reverse(), totalMinutes };
}

/** Renders the report with pdfkit (A4, built-in Helvetica): one line per record, a total per day and for the month. */
export function renderReportPdf(report: MonthlyReport): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A4', margin: 50, info: { Title: `Time records ${report.month}`, Author: 'Academy' } });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const time = new Intl.DateTimeFormat('en-GB', { timeZone: report.timeZone, hour: '2-digit', minute: '2-digit', day: '2-digit', month: '2-digit', hourCycle: 'h23' });
  const at = (iso: string | null) => (iso ? time.format(new Date(iso)) : 'open');
  const who = report.employeeName ? `${report.employeeName} (employee #${report.employeeId})` : `Employee #${report.employeeId}`;

  doc.font('Helvetica-Bold').fontSize(16).text(`Time record report ${report.month}`);
  doc.font('Helvetica').fontSize(10).text(`${who}. Times in ${report.timeZone}.`).moveDown();
  const columns = [50, 150, 260, 370, 460];
  const row = (cells: string[], bold = false) => {
    if (doc.y > doc.page.height - 80) doc.addPage();
    const y = doc.y;
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica');
    cells.forEach((cell, index) => doc.text(cell, columns[index]!, y, { width: (columns[index + 1] ?? 545) - columns[index]! - 5, lineBreak: false }));
    doc.x = 50;
    doc.moveDown(0.4);
  };
  row(['Day', 'Clock-in', 'Clock-out', 'Record', 'Day total'], true);
  if (!report.days.length) row(['No time records this month.']);
  for (const day of report.days) {
    day.records.forEach((record, index) =>
      row([index === 0 ? day.date : '', at(record.clockInAt), at(record.clockOutAt), formatMinutes(record.workedMinutes), index === day.records.length - 1 ? day.worked : '']),
    );
  }
  doc.moveDown();
  doc.font('Helvetica-Bold').fontSize(12).text(`Total worked: ${formatMinutes(report.totalMinutes)} (${report.totalMinutes} min) over ${report.days.length} days`, 50);
  doc.end();
  return done;
}
