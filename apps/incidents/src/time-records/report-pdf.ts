import PDFDocument from 'pdfkit';
import type { IncidentKind, IncidentSeverity, Locale } from '@academy/contracts';
import { addDays } from '../shared/time.ts';
import { REPORT_WORDS, type ReportWords } from './report-words.ts';

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

/** Worked time as `h:mm` (59 minutes is `0:59`, 10 hours `10:00`). */
export const hoursAndMinutes = (minutes: number) => `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')}`;

/** The Monday of a day's ISO week. */
const mondayOf = (day: string) => addDays(day, -((new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7));
const shortDate = (day: string) => `${day.slice(8, 10)}/${day.slice(5, 7)}`;
const monthName = (month: string, words: ReportWords) =>
  new Intl.DateTimeFormat(words.intl, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${month}-01T00:00:00Z`));

function localParts(instant: Date, timeZone: string): Record<'year' | 'month' | 'day' | 'hour' | 'minute', string> {
  return Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
      .formatToParts(instant)
      .map((part) => [part.type, part.value]),
  ) as Record<'year' | 'month' | 'day' | 'hour' | 'minute', string>;
}

function localDateTime(instant: Date, timeZone: string): string {
  const parts = localParts(instant, timeZone);
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`;
}

const INSTANT = /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})/g;

/**
 * An incident's description as the sheet prints it: each instant (stored as UTC ISO) as the
 * academy's wall time `h:mm`, with its `DD/MM` when it falls on another day than the incident's.
 */
export function localizeInstants(description: string, day: string, timeZone: string): string {
  return description.replace(INSTANT, (iso) => {
    const parts = localParts(new Date(iso), timeZone);
    const time = `${Number(parts.hour)}:${parts.minute}`;
    return `${parts.year}-${parts.month}-${parts.day}` === day ? time : `${parts.day}/${parts.month} ${time}`;
  });
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
/** The incidents' columns: the day, the type in words with its severity and status under it, the description. */
const INCIDENT_COLUMNS = { day: { x: 50, width: 58 }, kind: { x: 112, width: 138 }, description: { x: 258, width: PAGE.right - 258 } } as const;

/** The document being drawn and where the next line goes; each part of the sheet draws through it. */
interface Sheet {
  doc: PDFKit.PDFDocument;
  report: MonthlyReport;
  words: ReportWords;
  y: number;
}

function cell(sheet: Sheet, column: Column, text: string, options: { bold?: boolean; align?: 'left' | 'right' } = {}): void {
  const { x, width } = COLUMNS[column];
  sheet.doc.font(options.bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(9);
  sheet.doc.text(text, x, sheet.y + 3, { width, align: options.align ?? 'left', lineBreak: false, ellipsis: true });
}

function rule(sheet: Sheet, at: number, color = '#999999'): void {
  sheet.doc.moveTo(PAGE.left, at).lineTo(PAGE.right, at).lineWidth(0.5).strokeColor(color).stroke();
}

function pageHeader(sheet: Sheet): void {
  const { doc, report, words } = sheet;
  sheet.y = PAGE.top;
  doc.fillColor('black').font('Helvetica-Bold').fontSize(14).text(words.title(monthName(report.month, words)), PAGE.left, sheet.y, { lineBreak: false });
  sheet.y += 20;
  doc.font('Helvetica').fontSize(10).text(words.employee(report.employeeName, report.employeeId), PAGE.left, sheet.y, { lineBreak: false });
  sheet.y += 14;
  doc.fontSize(9).fillColor('#444444').text(words.note(report.timeZone), PAGE.left, sheet.y, { lineBreak: false });
  doc.fillColor('black');
  sheet.y += 20;
}

function tableHeader(sheet: Sheet): void {
  const { columns } = sheet.words;
  cell(sheet, 'date', columns.date, { bold: true });
  cell(sheet, 'weekday', columns.weekday, { bold: true });
  cell(sheet, 'clockIn', columns.clockIn, { bold: true });
  cell(sheet, 'clockOut', columns.clockOut, { bold: true });
  cell(sheet, 'worked', columns.worked, { bold: true, align: 'right' });
  cell(sheet, 'dayTotal', columns.dayTotal, { bold: true, align: 'right' });
  sheet.y += ROW;
  rule(sheet, sheet.y);
}

/** A new page when `height` does not fit; the records' column header again when `inTable`. */
function room(sheet: Sheet, height: number, inTable: boolean): boolean {
  if (sheet.y + height <= PAGE.bottom) return false;
  sheet.doc.addPage();
  pageHeader(sheet);
  if (inTable) tableHeader(sheet);
  return true;
}

/** One line per record (its part of each day), the day's total on its last line, a band per ISO week. */
function drawRecords(sheet: Sheet): void {
  const { doc, report, words } = sheet;
  tableHeader(sheet);
  if (!report.lines.length) {
    doc.font('Helvetica').fontSize(9).text(words.noRecords, PAGE.left, sheet.y + 3, { lineBreak: false });
    sheet.y += ROW;
  }
  const dayTotals = new Map<string, number>();
  for (const line of report.lines) dayTotals.set(line.day, (dayTotals.get(line.day) ?? 0) + line.minutes);
  let weekMinutes = 0;
  report.lines.forEach((line, index) => {
    const newPage = room(sheet, ROW, true);
    const previous = report.lines[index - 1];
    const next = report.lines[index + 1];
    // The date again at the top of a page, for a day that goes on there.
    if (previous?.day !== line.day || newPage) {
      cell(sheet, 'date', line.day);
      cell(sheet, 'weekday', words.weekdays[new Date(`${line.day}T00:00:00Z`).getUTCDay()]!);
    }
    cell(sheet, 'clockIn', line.continued ? `${line.from} ${words.continued}` : line.from);
    cell(sheet, 'clockOut', line.open ? words.open : line.continues ? `24:00 ${words.continued}` : line.to);
    cell(sheet, 'worked', hoursAndMinutes(line.minutes), { align: 'right' });
    if (next?.day !== line.day) cell(sheet, 'dayTotal', hoursAndMinutes(dayTotals.get(line.day)!), { bold: true, align: 'right' });
    sheet.y += ROW;
    weekMinutes += line.minutes;
    if (!next || mondayOf(next.day) !== mondayOf(line.day)) {
      room(sheet, ROW + 4, true);
      const monday = mondayOf(line.day);
      doc.rect(PAGE.left, sheet.y + 1, PAGE.right - PAGE.left, ROW).fillColor('#eeeeee').fill().fillColor('black');
      doc.font('Helvetica-Bold').fontSize(9).text(words.week(shortDate(monday), shortDate(addDays(monday, 6))), COLUMNS.date.x + 2, sheet.y + 4, { lineBreak: false });
      cell(sheet, 'dayTotal', hoursAndMinutes(weekMinutes), { bold: true, align: 'right' });
      sheet.y += ROW + 4;
      weekMinutes = 0;
    }
  });
}

function drawMonthTotal(sheet: Sheet): void {
  const { doc, report, words } = sheet;
  room(sheet, ROW + 8, false);
  rule(sheet, sheet.y + 2, '#333333');
  sheet.y += 6;
  const days = new Set(report.lines.map((line) => line.day)).size;
  doc.font('Helvetica-Bold').fontSize(10).text(words.monthTotal(monthName(report.month, words), hoursAndMinutes(report.totalMinutes), days), PAGE.left, sheet.y + 3, { lineBreak: false });
  sheet.y += ROW + 14;
}

/**
 * The month's incidents: the day, the type in words (wrapped within its column) with its severity
 * and status below it, and the description with its instants in the academy's zone. Each row is
 * as tall as its tallest column, so nothing is drawn over anything else.
 */
function drawIncidents(sheet: Sheet): void {
  const { doc, report, words } = sheet;
  room(sheet, 40, false);
  doc.font('Helvetica-Bold').fontSize(11).text(words.incidents(report.incidents.length), PAGE.left, sheet.y, { lineBreak: false });
  sheet.y += 18;
  if (!report.incidents.length) {
    doc.font('Helvetica').fontSize(9).text(words.none, PAGE.left, sheet.y, { lineBreak: false });
    sheet.y += ROW;
  }
  const { day, kind, description } = INCIDENT_COLUMNS;
  for (const incident of report.incidents) {
    const kindText = words.kinds[incident.kind];
    const stateText = `${words.severities[incident.severity]}, ${words.statuses[incident.status]}`;
    const descriptionText = localizeInstants(incident.description, incident.day, report.timeZone);
    const kindHeight = doc.font('Helvetica-Bold').fontSize(9).heightOfString(kindText, { width: kind.width });
    const stateHeight = doc.font('Helvetica').fontSize(8).heightOfString(stateText, { width: kind.width });
    const descriptionHeight = doc.font('Helvetica').fontSize(8.5).heightOfString(descriptionText, { width: description.width });
    const height = Math.max(ROW, kindHeight + 1 + stateHeight, descriptionHeight) + 6;
    room(sheet, height, false);
    const top = sheet.y;
    doc.fillColor('black').font('Helvetica').fontSize(9).text(incident.day, day.x, top, { width: day.width, lineBreak: false });
    doc.font('Helvetica-Bold').fontSize(9).text(kindText, kind.x, top, { width: kind.width });
    doc.font('Helvetica').fontSize(8).fillColor('#444444').text(stateText, kind.x, top + kindHeight + 1, { width: kind.width });
    doc.fillColor('black').fontSize(8.5).text(descriptionText, description.x, top, { width: description.width });
    sheet.y = top + height;
  }
}

function drawSignatures(sheet: Sheet): void {
  const { doc, report, words } = sheet;
  room(sheet, 120, false);
  sheet.y += 16;
  doc.font('Helvetica').fontSize(9).text(words.confirm, PAGE.left, sheet.y, { lineBreak: false });
  sheet.y += 50;
  const signature = (x: number, title: string, name: string) => {
    doc.moveTo(x, sheet.y).lineTo(x + 210, sheet.y).lineWidth(0.7).strokeColor('black').stroke();
    doc.font('Helvetica-Bold').fontSize(9).text(title, x, sheet.y + 5, { lineBreak: false });
    doc.font('Helvetica').text(name, x, sheet.y + 18, { width: 210, lineBreak: false, ellipsis: true });
    doc.text(words.date, x, sheet.y + 31, { lineBreak: false });
  };
  signature(PAGE.left, words.employeeSignature, report.employeeName ?? words.employee(null, report.employeeId));
  signature(335, words.administratorSignature, words.name);
}

/** On every page: when it was generated (in the academy's zone) and its number. */
function drawFooters(sheet: Sheet): void {
  const { doc, report, words } = sheet;
  const generated = words.generated(localDateTime(report.generatedAt, report.timeZone), report.timeZone);
  const { start, count } = doc.bufferedPageRange();
  for (let page = start; page < start + count; page++) {
    doc.switchToPage(page);
    // Below the bottom margin pdfkit would open a new page for the footer: lift the margin while writing it.
    const bottomMargin = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc.font('Helvetica').fontSize(8).fillColor('#666666');
    doc.text(generated, PAGE.left, 805, { lineBreak: false });
    doc.text(words.page(page - start + 1, count), PAGE.left, 805, { width: PAGE.right - PAGE.left, align: 'right', lineBreak: false });
    doc.page.margins.bottom = bottomMargin;
  }
}

/**
 * Renders the report with pdfkit (A4, built-in Helvetica) as a time sheet to sign, in `locale`: the
 * records, a total per ISO week and for the month, the month's incidents, signature lines for the
 * employee and the administrator, and on every page the header, when it was generated and the page
 * number. Every line has its own height: nothing is drawn over anything else, and a long month
 * breaks onto new pages.
 */
export function renderReportPdf(report: MonthlyReport, locale: Locale = 'en'): Promise<Buffer> {
  const words = REPORT_WORDS[locale];
  const doc = new PDFDocument({ size: 'A4', margin: 50, bufferPages: true, info: { Title: words.title(report.month), Author: 'Academy' } });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const sheet: Sheet = { doc, report, words, y: PAGE.top };
  pageHeader(sheet);
  drawRecords(sheet);
  drawMonthTotal(sheet);
  drawIncidents(sheet);
  drawSignatures(sheet);
  drawFooters(sheet);
  doc.end();
  return done;
}
