import { describe, expect, test } from '@jest/globals';
import request from 'supertest';
import { fixedClock } from '@academy/kit';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { hoursAndMinutes, renderReportPdf, type MonthlyReport, type ReportLine } from '../../src/time-records/report-pdf.ts';
import { adminAuth, insertRecord, seedEmployee, sql, useIncidents } from '../support.ts';

interface Item {
  page: number;
  text: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Every text item of the PDF with its position (pdfjs: y grows upwards from the page's bottom). */
async function textItems(pdf: Buffer): Promise<Item[]> {
  const document = await getDocument({ data: new Uint8Array(pdf), useSystemFonts: false, verbosity: 0 }).promise;
  const items: Item[] = [];
  for (let page = 1; page <= document.numPages; page++) {
    const content = await (await document.getPage(page)).getTextContent();
    for (const item of content.items) {
      if (!('str' in item) || !item.str.trim()) continue;
      items.push({ page, text: item.str, x: item.transform[4], y: item.transform[5], width: item.width, height: item.height });
    }
  }
  await document.destroy();
  return items;
}

/** Pairs of items drawn over each other: on one page, about one baseline, their x ranges crossing. */
function overlaps(items: Item[]): string[] {
  const found: string[] = [];
  items.forEach((a, i) =>
    items.slice(i + 1).forEach((b) => {
      const sameLine = a.page === b.page && Math.abs(a.y - b.y) < Math.min(a.height, b.height) * 0.8;
      const crossing = a.x < b.x + b.width - 0.5 && b.x < a.x + a.width - 0.5;
      if (sameLine && crossing) found.push(`page ${a.page}: "${a.text}" (${a.x.toFixed(1)}, ${a.y.toFixed(1)}) over "${b.text}" (${b.x.toFixed(1)}, ${b.y.toFixed(1)})`);
    }),
  );
  return found;
}

const line = (day: string, from: string, to: string, minutes: number, recordId: number, extra: Partial<ReportLine> = {}): ReportLine => ({
  recordId,
  day,
  from,
  to,
  continued: false,
  continues: false,
  open: false,
  minutes,
  ...extra,
});

const report = (lines: ReportLine[], extra: Partial<MonthlyReport> = {}): MonthlyReport => ({
  employeeId: 7,
  employeeName: 'Ada Lovelace',
  month: '2026-11',
  timeZone: 'Europe/Madrid',
  lines,
  incidents: [],
  totalMinutes: lines.reduce((sum, each) => sum + each.minutes, 0),
  generatedAt: new Date('2026-12-01T09:05:00Z'),
  ...extra,
});

/** The y of the item whose text is `text` (exactly one such item). */
function yOf(items: Item[], text: string): { page: number; y: number } {
  const found = items.filter((item) => item.text === text);
  expect([text, found.length]).toEqual([text, 1]);
  return { page: found[0]!.page, y: found[0]!.y };
}

describe('the monthly PDF, as a time sheet to sign', () => {
  test('five records of 2026-11-25 are five lines, one under the other, none drawn over another', async () => {
    const times = [
      ['08:00', '09:01'],
      ['09:15', '10:30'],
      ['10:45', '12:00'],
      ['13:00', '14:59'],
      ['15:10', '16:00'],
    ] as const;
    const lines = times.map(([from, to], index) => line('2026-11-25', from, to, 60 + index, index + 1));
    const items = await textItems(await renderReportPdf(report(lines)));
    expect(overlaps(items)).toEqual([]);
    const rows = times.map(([from, to]) => [yOf(items, from), yOf(items, to)] as const);
    for (const [clockIn, clockOut] of rows) expect(clockOut).toEqual(clockIn);
    const ys = rows.map(([clockIn]) => clockIn.y);
    expect(new Set(ys).size).toBe(5);
    expect([...ys].sort((a, b) => b - a)).toEqual(ys); // top to bottom, in the order of the day
    for (let i = 1; i < ys.length; i++) expect(ys[i - 1]! - ys[i]!).toBeGreaterThanOrEqual(12);
    // The date once, on the first line; the day's total (60+61+62+63+64 = 310 min) on the last.
    expect(yOf(items, '2026-11-25').y).toBe(ys[0]);
    const totals = items.filter((item) => item.text === '5:10');
    expect(totals).toHaveLength(2); // the day's and the week's
    expect(totals[0]!.y).toBe(ys[4]);
    expect(totals[1]!.y).toBeLessThan(ys[4]!);
  });

  test('worked time reads h:mm (59 minutes is 0:59), with weekly and monthly totals', async () => {
    expect([59, 0, 60, 61, 600, 1439].map(hoursAndMinutes)).toEqual(['0:59', '0:00', '1:00', '1:01', '10:00', '23:59']);
    const lines = [
      line('2026-11-06', '09:00', '09:59', 59, 1), // Friday, week of 02/11
      line('2026-11-09', '09:00', '17:30', 510, 2), // Monday, week of 09/11
      line('2026-11-10', '09:00', '13:00', 240, 3),
    ];
    const text = (await textItems(await renderReportPdf(report(lines)))).map((item) => item.text).join('\n');
    expect(text).toContain('0:59');
    expect(text).not.toMatch(/\b0h\b/);
    expect(text).toContain('Week 02/11 – 08/11');
    expect(text).toContain('Week 09/11 – 15/11');
    expect(text).toContain('12:30'); // 510 + 240
    expect(text).toContain('Total worked in November 2026: 13:29 over 3 days');
  });

  test('a long month breaks onto pages, each with the header, the column names while the table runs, the generation time and its number; still no line shared', async () => {
    const lines: ReportLine[] = [];
    for (let day = 1; day <= 30; day++) {
      const date = `2026-11-${String(day).padStart(2, '0')}`;
      for (let part = 0; part < 4; part++) lines.push(line(date, `${String(8 + part * 2).padStart(2, '0')}:${String(day).padStart(2, '0')}`, `${String(9 + part * 2).padStart(2, '0')}:${String(day + 29)}`, 90, lines.length + 1));
    }
    const incidents = Array.from({ length: 12 }, (_, index) => ({
      day: `2026-11-${String(index + 10).padStart(2, '0')}`,
      kind: 'LATE_CLOCK_IN' as const,
      severity: 'low' as const,
      status: 'open' as const,
      description: `First clock-in on 2026-11-${index + 10} at 09:45, after the first class at 09:00 (Europe/Madrid) plus 30 min of grace. `.repeat(2),
    }));
    const items = await textItems(await renderReportPdf(report(lines, { incidents })));
    expect(overlaps(items)).toEqual([]);
    const pages = Math.max(...items.map((item) => item.page));
    expect(pages).toBeGreaterThanOrEqual(4);
    for (let page = 1; page <= pages; page++) {
      const onPage = items.filter((item) => item.page === page).map((item) => item.text);
      expect(onPage).toContain('Monthly time record: November 2026');
      expect(onPage).toContain('Generated 2026-12-01 10:05 (Europe/Madrid)');
      expect(onPage).toContain(`Page ${page} of ${pages}`);
    }
    const tablePages = new Set(lines.map((each) => yOf(items, `${each.from}`).page));
    for (const page of tablePages) expect(items.filter((item) => item.page === page).map((item) => item.text)).toContain('Clock-in');
    // Every line once, each on its own baseline, nothing below the footer's room.
    const starts = lines.map((each) => yOf(items, each.from));
    expect(new Set(starts.map((start) => `${start.page}:${start.y}`)).size).toBe(lines.length);
    expect(Math.min(...items.filter((item) => !item.text.startsWith('Generated') && !item.text.startsWith('Page')).map((item) => item.y))).toBeGreaterThan(50);
    const text = items.map((item) => item.text).join('\n');
    expect(text).toContain('Total worked in November 2026: 180:00 over 30 days');
    expect(text).toContain('Incidents of the month (12)');
    expect(items.filter((item) => item.text === 'Employee' || item.text === 'Administrator').map((item) => item.page)).toEqual([pages, pages]);
  });
});

describe('GET /api/v2/timerecord/report.pdf', () => {
  // Pinned: Tuesday 2026-12-01 09:05 UTC, 10:05 in Madrid (the default academy time zone).
  const service = useIncidents({}, { clock: fixedClock(new Date('2026-12-01T09:05:00Z')) });
  const pdfOf = async (path: string, auth: Record<string, string>) => {
    const res = await request(service().url)
      .get(path)
      .set(auth)
      .buffer(true)
      .parse((response, callback) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => callback(null, Buffer.concat(chunks)));
      });
    expect([res.status, res.headers['content-type']]).toEqual([200, 'application/pdf']);
    return textItems(res.body as Buffer);
  };

  test("times in the academy's time zone, a night shift split at midnight, the month's incidents (not another month's, not deleted ones), generated at the service's now", async () => {
    const { employeeId, auth } = await seedEmployee(service(), { name: 'Grace Hopper' });
    await insertRecord(service(), employeeId, '2026-11-25T08:00:00Z', '2026-11-25T08:59:00Z'); // 09:00–09:59 in Madrid
    await insertRecord(service(), employeeId, '2026-11-27T22:30:00Z', '2026-11-28T00:45:00Z'); // 23:30–01:45 in Madrid
    await insertRecord(service(), employeeId, '2026-10-31T20:00:00Z', '2026-10-31T21:00:00Z'); // 21:00–22:00 on 31/10 in Madrid: October
    const incident = (day: string, kind: string, description: string, deleted = false) =>
      sql(
        service(),
        `insert into incidents (employee_id, kind, severity, status, description, day, created_at, updated_at, deleted_at)
         values ($1, $2, 'high', 'open', $3, $4::date, now(), now(), case when $5 then now() end)`,
        [employeeId, kind, description, day, deleted],
      );
    await incident('2026-11-24', 'ABSENCE', 'No clock-in on 2026-11-24 by the first class at 09:00 (Europe/Madrid) plus 30 min of grace.');
    await incident('2026-11-23', 'ABSENCE', 'A deleted one.', true);
    await incident('2026-10-30', 'ABSENCE', 'Another month.');

    const items = await pdfOf('/api/v2/timerecord/report.pdf?month=2026-11', auth);
    expect(overlaps(items)).toEqual([]);
    const text = items.map((item) => item.text);
    expect(text).toEqual(expect.arrayContaining(['Grace Hopper (employee #' + employeeId + ')', '2026-11-25', '09:00', '09:59', '0:59']));
    expect(yOf(items, '23:30').y).toBe(yOf(items, '24:00 (cont.)').y);
    expect(yOf(items, '00:00 (cont.)').y).toBe(yOf(items, '01:45').y);
    expect(text).toContain('Total worked in November 2026: 3:14 over 3 days'); // 0:59 + 0:30 + 1:45
    expect(text).toContain('Incidents of the month (1)');
    expect(text.join(' ')).toContain('No clock-in on 2026-11-24');
    expect(text.join(' ')).not.toContain('Another month');
    expect(text.join(' ')).not.toContain('A deleted one');
    expect(text).toContain('Generated 2026-12-01 10:05 (Europe/Madrid)');

    // An admin reads anyone's; the same document.
    const asAdmin = await pdfOf(`/api/v2/timerecord/report.pdf?month=2026-11&employeeId=${employeeId}`, adminAuth);
    expect(asAdmin.map((item) => item.text)).toEqual(text);
  });
});
