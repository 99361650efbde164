import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Actor } from '@academy/auth';
import type { AttendanceReportQuery } from '@academy/contracts';
import type { AcademicContext } from '../shared/academic-context.ts';
import { dayOf, dayRange } from './academy-days.ts';
import { csvLines, csvStart } from './attendance-report-csv.ts';
import { streamReportSessions } from './attendance.store.ts';
import { reportFilter } from './report-filter.ts';

/**
 * The report as CSV, read from a PostgreSQL cursor as it is sent. Answers once the read has started
 * (an error until then is the request's error); one after the first bytes cuts the file short.
 */
export async function streamAttendanceReport(ctx: AcademicContext, input: AttendanceReportQuery, actor: Actor): Promise<{ fileName: string; content: Readable }> {
  const em = ctx.orm.em;
  const timeZone = ctx.config.ACADEMY_TIME_ZONE;
  const range = dayRange(input, dayOf(ctx.clock.now(), timeZone), 365);
  const filter = await reportFilter(em, input, actor);
  const threshold = input.below ?? ctx.config.ATTENDANCE_WARNING_PERCENT;
  const content = new PassThrough();
  await new Promise<void>((started, failed) => {
    streamReportSessions(
      em,
      { filter, range, timeZone, below: input.below },
      {
        started: () => {
          content.write(csvStart());
          started();
        },
        rows: (rows) => pipeline(rows, csvLines(threshold), content),
      },
    ).catch((error: unknown) => {
      failed(error);
      content.destroy(error as Error);
    });
  });
  return { fileName: `attendance-${range.from}-${range.to}.csv`, content };
}
