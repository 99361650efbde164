// The report as CSV, streamed from a PostgreSQL cursor (pg-query-stream) through `pipeline`: one row
// per student × session, with its times in the academy's zone (ISO with the offset of that instant),
// then a summary row per student and subject. Memory stays flat whatever the number of rows.
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Writable } from 'node:stream';
import type { EntityManager, PostgreSqlConnection } from '@mikro-orm/postgresql';
import type { Pool } from 'pg';
import QueryStream from 'pg-query-stream';
import { DAY_END_SQL, DAY_START_SQL, type DayRange } from './academy-days.ts';

const HEADER = ['row', 'studentId', 'student', 'subjectId', 'subject', 'centerId', 'eventId', 'startsAt', 'endsAt', 'status', 'minutesLate', 'remark', 'sessions', 'counted', 'percentage', 'below'];

/** `filters` and `params` as reportFilters builds them; `?` placeholders, numbered here for pg. */
const csvSql = (filters: string, outer: string) => `
  with sessions as (
    select x.*, st.weight
      from (select m.student_id, e.subject_id, e.center_id, e.id as event_id, e.starts_at, e.ends_at, m.status, m.minutes_late, m.remark
              from attendance_marks m join calendar_events e on e.id = m.event_id) x
      join attendance_statuses st on st.code = x.status
     where x.starts_at >= ${DAY_START_SQL} and x.starts_at < ${DAY_END_SQL} ${filters}),
  totals as (
    select student_id, subject_id, count(*)::int as sessions, count(*) filter (where weight is not null)::int as counted,
           round(100 * sum(weight) / nullif(count(*) filter (where weight is not null), 0), 2)::float8 as percentage
      from sessions group by student_id, subject_id)
  select x.student_id as "studentId", trim(s.name || ' ' || s.lastname) as student, x.subject_id as "subjectId", sub.name as subject,
         x.center_id as "centerId", x.event_id as "eventId",
         to_char(x.starts_at, 'YYYY-MM-DD"T"HH24:MI:SSTZH:TZM') as "startsAt", to_char(x.ends_at, 'YYYY-MM-DD"T"HH24:MI:SSTZH:TZM') as "endsAt",
         x.status, x.minutes_late as "minutesLate", x.remark, t.sessions, t.counted, t.percentage
    from sessions x
    join totals t using (student_id, subject_id)
    join students s on s.id = x.student_id
    join subjects sub on sub.id = x.subject_id
   where true ${outer}
   order by s.lastname, s.name, x.student_id, sub.name, x.subject_id, x.starts_at, x.event_id`;

interface CsvRow {
  studentId: number;
  student: string;
  subjectId: number;
  subject: string;
  centerId: number;
  eventId: number;
  startsAt: string;
  endsAt: string;
  status: string;
  minutesLate: number | null;
  remark: string | null;
  sessions: number;
  counted: number;
  percentage: number | null;
}

/** A CSV cell: quoted when needed; text that a spreadsheet would run as a formula is prefixed with `'`. */
function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
const line = (cells: unknown[]) => `${cells.map(cell).join(',')}\r\n`;

/** Turns ordered session rows into CSV lines, a summary line after each student-subject group. */
function csvLines(threshold: number): Transform {
  let group: CsvRow | null = null;
  const summary = (row: CsvRow) =>
    line(['summary', row.studentId, row.student, row.subjectId, row.subject, '', '', '', '', '', '', '', row.sessions, row.counted, row.percentage, row.percentage !== null && row.percentage < threshold]);
  return new Transform({
    writableObjectMode: true,
    transform(row: CsvRow, _encoding, done) {
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

const numbered = (sql: string) => {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
};

/**
 * Streams the CSV into `out` (the response): the query runs in a read-only transaction whose time
 * zone is the academy's, so `to_char` writes each instant with the offset it had there.
 */
export async function streamReportCsv(
  em: EntityManager,
  out: Writable,
  report: { range: DayRange; filters: string; params: unknown[]; below?: number; threshold: number; timeZone: string },
): Promise<void> {
  const pool = (await (em.getConnection() as PostgreSqlConnection).getNativeClient()) as unknown as Pool;
  const client = await pool.connect();
  let failure: unknown;
  try {
    await client.query('begin read only');
    await client.query(`select set_config('TimeZone', $1, true)`, [report.timeZone]);
    const outer = report.below === undefined ? '' : 'and t.percentage < ?';
    const params = [report.range.from, report.timeZone, report.range.to, report.timeZone, ...report.params, ...(report.below === undefined ? [] : [report.below])];
    const rows = client.query(new QueryStream(numbered(csvSql(report.filters, outer)), params, { batchSize: 200 }));
    // The UTF-8 byte-order mark first: without it Excel, which most academies open the report with, reads the names as Windows-1252.
    out.write(`\uFEFF${line(HEADER)}`);
    await pipeline(rows, csvLines(report.threshold), out);
    await client.query('commit');
  } catch (error) {
    failure = error;
    throw error;
  } finally {
    // A connection left mid-query (the client went away) is dropped rather than reused.
    client.release(failure instanceof Error ? failure : undefined);
  }
}
