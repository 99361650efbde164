import PDFDocument from 'pdfkit';
import type { IncidentKind, IncidentSeverity, ReportQuery } from '@academy/contracts';
import type { Actor } from '../shared/actor.ts';
import type { Query } from '../shared/db.ts';
import type { IncidentsContext } from '../shared/incidents-context.ts';
import { addDays, monthBounds } from '../shared/time.ts';
import { knownTargetEmployee } from './history.ts';
import { employeeNameOf } from '../shared/employee-names.ts';

/** One line of the report: a record, or its part within one local day when it crosses midnight. */
export interface ReportLine {
  recordId: number;
  /** Local day `YYYY-MM-DD`. */
  day: string;
  /** Local wall times `HH:MM` of the part. */
  from: string;
  to: string;
  /** The record began the day before (this part starts at midnight). */
  continued: boolean;
  /** The record goes on past midnight (this part ends there). */
  continues: boolean;
  open: boolean;
  minutes: number;
}

export interface ReportIncident {
  day: string;
  kind: IncidentKind;
  severity: IncidentSeverity;
  status: 'open' | 'closed';
  description: string;
}

export interface MonthlyReport {
  employeeId: number;
  employeeName: string | null;
  month: string;
  timeZone: string;
  lines: ReportLine[];
  incidents: ReportIncident[];
  totalMinutes: number;
  generatedAt: Date;
}

/**
 * The month's records cut at local midnights (`$4` time zone), oldest first: a night shift is two
 * lines, one per day, as the history counts it; a record left open counts up to now (`$5`).
 */
const LINES = `
with bounds as (select ($2::date::timestamp at time zone $4) as lo, (($3::date + 1)::timestamp at time zone $4) as hi),
r as (
  select r.id, r.clock_in_at, r.clock_out_at is null as open, coalesce(r.clock_out_at, $5::timestamptz) as end_at from time_records r, bounds b
  where r.employee_id = $1 and r.clock_in_at < b.hi and coalesce(r.clock_out_at, $5::timestamptz) > b.lo
),
seg as (
  select r.id, r.open, r.clock_in_at, r.end_at, d::date as day,
    greatest(r.clock_in_at, d at time zone $4) as s,
    least(r.end_at, (d + interval '1 day') at time zone $4) as e
  from r, generate_series((r.clock_in_at at time zone $4)::date::timestamp, (r.end_at at time zone $4)::date::timestamp, interval '1 day') d
)
select id as "recordId", day::text as day, to_char(s at time zone $4, 'HH24:MI') as "from", to_char(e at time zone $4, 'HH24:MI') as "to",
  s > clock_in_at as continued, e < end_at as continues, open and e = end_at as open, floor(extract(epoch from e - s) / 60)::int as minutes
from seg where day between $2::date and $3::date and e > s
order by s, id`;

/** The month's incidents of the employee (their day, or the local day they were raised), deleted ones left out. */
const INCIDENTS = `
select coalesce(i.day, (i.created_at at time zone $4)::date)::text as day, i.kind, i.severity, i.status, i.description
from incidents i
where i.employee_id = $1 and i.deleted_at is null and coalesce(i.day, (i.created_at at time zone $4)::date) between $2::date and $3::date
order by day, i.id`;

async function reportLines(query: Query, employeeId: number, from: string, to: string, timeZone: string, now: Date) {
  return query<ReportLine>(LINES, [employeeId, from, to, timeZone, now.toISOString()]);
}

/** The month's records, totals and incidents of one employee, in the academy's time zone. */
export async function monthlyReport(deps: IncidentsContext, actor: Actor, input: ReportQuery): Promise<MonthlyReport> {
  const employeeId = await knownTargetEmployee(deps, actor, input.employeeId);
  const { from, to } = monthBounds(input.month);
  const timeZone = deps.config.ACADEMY_TIME_ZONE;
  const now = deps.clock.now();
  const [lines, monthIncidents, employeeName] = await Promise.all([
    reportLines(deps.db.query, employeeId, from, to, timeZone, now),
    deps.db.query<ReportIncident>(INCIDENTS, [employeeId, from, to, timeZone]),
    employeeNameOf(deps.db.query, employeeId),
  ]);
  const totalMinutes = lines.reduce((sum, line) => sum + line.minutes, 0);
  return { employeeId, employeeName, month: input.month, timeZone, lines, incidents: monthIncidents, totalMinutes, generatedAt: now };
}

/** Worked time as `h:mm` (59 minutes is `0:59`, 10 hours `10:00`). */
export const hoursAndMinutes = (minutes: number) => `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')}`;

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const weekday = (day: string) => WEEKDAYS[new Date(`${day}T00:00:00Z`).getUTCDay()]!;
/** The Monday of a day's ISO week. */
const mondayOf = (day: string) => addDays(day, -((new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7));
const shortDate = (day: string) => `${day.slice(8, 10)}/${day.slice(5, 7)}`;
const monthName = (month: string) => new Intl.DateTimeFormat('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${month}-01T00:00:00Z`));

function localDateTime(instant: Date, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
      .formatToParts(instant)
      .map((part) => [part.type, part.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`;
}

const PAGE = { left: 50, right: 545, top: 50, bottom: 780 } as const;
const ROW = 15;
const COLUMNS = {
  date: { x: 50, width: 62 },
  weekday: { x: 114, width: 30 },
  clockIn: { x: 150, width: 100 },
  clockOut: { x: 255, width: 100 },
  worked: { x: 360, width: 70 },
  dayTotal: { x: 440, width: 105 },
} as const;
type Column = keyof typeof COLUMNS;

/**
 * Renders the report with pdfkit (A4, built-in Helvetica) as a time sheet to sign: one line per
 * record (its part of each day), the day's total on its last line, a total per ISO week and for
 * the month, the month's incidents, signature lines for the employee and the administrator, and
 * on every page the header, when it was generated and the page number. Every line has its own
 * height: nothing is drawn over anything else, and a long month breaks onto new pages.
 */
export function renderReportPdf(report: MonthlyReport): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A4', margin: 50, bufferPages: true, info: { Title: `Time record ${report.month}`, Author: 'Academy' } });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const who = report.employeeName ? `${report.employeeName} (employee #${report.employeeId})` : `Employee #${report.employeeId}`;
  const generated = `Generated ${localDateTime(report.generatedAt, report.timeZone)} (${report.timeZone})`;
  let y = PAGE.top;

  const cell = (column: Column, text: string, options: { bold?: boolean; align?: 'left' | 'right' } = {}) => {
    const { x, width } = COLUMNS[column];
    doc.font(options.bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(9);
    doc.text(text, x, y + 3, { width, align: options.align ?? 'left', lineBreak: false, ellipsis: true });
  };
  const rule = (at: number, color = '#999999') => doc.moveTo(PAGE.left, at).lineTo(PAGE.right, at).lineWidth(0.5).strokeColor(color).stroke();

  const pageHeader = () => {
    y = PAGE.top;
    doc.fillColor('black').font('Helvetica-Bold').fontSize(14).text(`Monthly time record: ${monthName(report.month)}`, PAGE.left, y, { lineBreak: false });
    y += 20;
    doc.font('Helvetica').fontSize(10).text(who, PAGE.left, y, { lineBreak: false });
    y += 14;
    doc.fontSize(9).fillColor('#444444').text(`Times in ${report.timeZone}. Worked time as h:mm. A record that crosses midnight is split at midnight (cont.).`, PAGE.left, y, { lineBreak: false });
    doc.fillColor('black');
    y += 20;
  };
  const tableHeader = () => {
    cell('date', 'Date', { bold: true });
    cell('weekday', 'Day', { bold: true });
    cell('clockIn', 'Clock-in', { bold: true });
    cell('clockOut', 'Clock-out', { bold: true });
    cell('worked', 'Worked', { bold: true, align: 'right' });
    cell('dayTotal', 'Day total', { bold: true, align: 'right' });
    y += ROW;
    rule(y);
  };
  /** A new page when `height` does not fit; the records' column header again when `inTable`. */
  const room = (height: number, inTable: boolean): boolean => {
    if (y + height <= PAGE.bottom) return false;
    doc.addPage();
    pageHeader();
    if (inTable) tableHeader();
    return true;
  };

  pageHeader();
  tableHeader();
  if (!report.lines.length) {
    doc.font('Helvetica').fontSize(9).text('No time records this month.', PAGE.left, y + 3, { lineBreak: false });
    y += ROW;
  }
  const dayTotals = new Map<string, number>();
  for (const line of report.lines) dayTotals.set(line.day, (dayTotals.get(line.day) ?? 0) + line.minutes);
  let weekMinutes = 0;
  report.lines.forEach((line, index) => {
    const newPage = room(ROW, true);
    const previous = report.lines[index - 1];
    const next = report.lines[index + 1];
    // The date again at the top of a page, for a day that goes on there.
    const firstOfDay = previous?.day !== line.day || newPage;
    const lastOfDay = next?.day !== line.day;
    if (firstOfDay) {
      cell('date', line.day);
      cell('weekday', weekday(line.day));
    }
    cell('clockIn', line.continued ? `${line.from} (cont.)` : line.from);
    cell('clockOut', line.open ? 'open' : line.continues ? '24:00 (cont.)' : line.to);
    cell('worked', hoursAndMinutes(line.minutes), { align: 'right' });
    if (lastOfDay) cell('dayTotal', hoursAndMinutes(dayTotals.get(line.day)!), { bold: true, align: 'right' });
    y += ROW;
    weekMinutes += line.minutes;
    if (!next || mondayOf(next.day) !== mondayOf(line.day)) {
      room(ROW + 4, true);
      const monday = mondayOf(line.day);
      doc.rect(PAGE.left, y + 1, PAGE.right - PAGE.left, ROW).fillColor('#eeeeee').fill().fillColor('black');
      doc.font('Helvetica-Bold').fontSize(9).text(`Week ${shortDate(monday)} – ${shortDate(addDays(monday, 6))}`, COLUMNS.date.x + 2, y + 4, { lineBreak: false });
      cell('dayTotal', hoursAndMinutes(weekMinutes), { bold: true, align: 'right' });
      y += ROW + 4;
      weekMinutes = 0;
    }
  });
  room(ROW + 8, false);
  rule(y + 2, '#333333');
  y += 6;
  const days = new Set(report.lines.map((line) => line.day)).size;
  doc.font('Helvetica-Bold').fontSize(10).text(`Total worked in ${monthName(report.month)}: ${hoursAndMinutes(report.totalMinutes)} over ${days} ${days === 1 ? 'day' : 'days'}`, PAGE.left, y + 3, {
    lineBreak: false,
  });
  y += ROW + 14;

  room(40, false);
  doc.font('Helvetica-Bold').fontSize(11).text(`Incidents of the month (${report.incidents.length})`, PAGE.left, y, { lineBreak: false });
  y += 18;
  if (!report.incidents.length) {
    doc.font('Helvetica').fontSize(9).text('None.', PAGE.left, y, { lineBreak: false });
    y += ROW;
  }
  const descriptionX = 200;
  const descriptionWidth = PAGE.right - descriptionX;
  for (const incident of report.incidents) {
    doc.font('Helvetica').fontSize(8.5);
    const height = Math.max(ROW, doc.heightOfString(incident.description, { width: descriptionWidth }) + 5);
    room(height, false);
    doc.font('Helvetica').fontSize(9).text(incident.day, PAGE.left, y, { lineBreak: false });
    doc.font('Helvetica-Bold').text(incident.kind, 115, y, { width: 80, lineBreak: false, ellipsis: true });
    doc.font('Helvetica').fontSize(8).fillColor('#444444').text(`${incident.severity}, ${incident.status}`, 115, y + 10, { width: 80, lineBreak: false });
    doc.fillColor('black').fontSize(8.5).text(incident.description, descriptionX, y, { width: descriptionWidth });
    y += Math.max(height, 22);
  }

  room(120, false);
  y += 16;
  doc.font('Helvetica').fontSize(9).text('I confirm that the records above are the hours worked in the month.', PAGE.left, y, { lineBreak: false });
  y += 50;
  const signature = (x: number, title: string, name: string) => {
    doc.moveTo(x, y).lineTo(x + 210, y).lineWidth(0.7).strokeColor('black').stroke();
    doc.font('Helvetica-Bold').fontSize(9).text(title, x, y + 5, { lineBreak: false });
    doc.font('Helvetica').text(name, x, y + 18, { width: 210, lineBreak: false, ellipsis: true });
    doc.text('Date:', x, y + 31, { lineBreak: false });
  };
  signature(PAGE.left, 'Employee', report.employeeName ?? `Employee #${report.employeeId}`);
  signature(335, 'Administrator', 'Name:');

  const { start, count } = doc.bufferedPageRange();
  for (let page = start; page < start + count; page++) {
    doc.switchToPage(page);
    // Below the bottom margin pdfkit would open a new page for the footer: lift the margin while writing it.
    const bottomMargin = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc.font('Helvetica').fontSize(8).fillColor('#666666');
    doc.text(generated, PAGE.left, 805, { lineBreak: false });
    doc.text(`Page ${page - start + 1} of ${count}`, PAGE.left, 805, { width: PAGE.right - PAGE.left, align: 'right', lineBreak: false });
    doc.page.margins.bottom = bottomMargin;
  }
  doc.end();
  return done;
}
