// The report as CSV: one row per student × session, with its times in the academy's zone (ISO with
// the offset of that instant), then a summary row per student and subject. Rows stream through, so
// memory stays flat whatever their number.
import { Transform } from 'node:stream';
import type { ReportSessionRow } from './attendance.store.ts';

const HEADER = ['row', 'studentId', 'student', 'subjectId', 'subject', 'centerId', 'eventId', 'startsAt', 'endsAt', 'status', 'minutesLate', 'remark', 'sessions', 'counted', 'percentage', 'below'];

/** A CSV cell: quoted when needed; text that a spreadsheet would run as a formula is prefixed with `'`. */
function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
const line = (cells: unknown[]) => `${cells.map(cell).join(',')}\r\n`;

/** Turns ordered session rows into CSV lines, a summary line after each student-subject group. */
export function csvLines(threshold: number): Transform {
  let group: ReportSessionRow | null = null;
  const summary = (row: ReportSessionRow) =>
    line(['summary', row.studentId, row.student, row.subjectId, row.subject, '', '', '', '', '', '', '', row.sessions, row.counted, row.percentage, row.percentage !== null && row.percentage < threshold]);
  return new Transform({
    writableObjectMode: true,
    transform(row: ReportSessionRow, _encoding, done) {
      let out = '';
      if (group && (group.studentId !== row.studentId || group.subjectId !== row.subjectId)) out += summary(group);
      group = row;
      out += line(['session', row.studentId, row.student, row.subjectId, row.subject, row.centerId, row.eventId, row.startsAt, row.endsAt, row.status, row.minutesLate, row.remark]);
      done(null, out);
    },
    flush(done) {
      done(null, group ? summary(group) : '');
    },
  });
}

/** The file's start: the UTF-8 byte-order mark (without it Excel, which most academies open the report with, reads the names as Windows-1252), then the header. */
export const csvStart = () => `\uFEFF${line(HEADER)}`;
