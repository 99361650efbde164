import { describe, expect, test } from '@jest/globals';
import request from 'supertest';
import { fixedClock } from '@academy/kit';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { INCIDENT_KINDS } from '@academy/contracts';
import { hoursAndMinutes, localizeInstants, renderReportPdf, type MonthlyReport, type ReportIncident, type ReportLine } from '../../src/time-records/report-pdf.ts';
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

interface Word {
  page: number;
  text: string;
  xMin: number;
  yMin: number;
  xMax: number;
  yMax: number;
}

/** Every word of the PDF with its box, as poppler's `pdftotext -bbox` finds them. */
function popplerWords(pdf: Buffer): Word[] {
  const dir = mkdtempSync(join(tmpdir(), 'report-pdf-'));
  try {
    writeFileSync(join(dir, 'report.pdf'), pdf);
    const html = execFileSync('pdftotext', ['-bbox', join(dir, 'report.pdf'), '-'], { encoding: 'utf8' });
    const words: Word[] = [];
    html.split('<page ').slice(1).forEach((page, index) => {
      for (const match of page.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g)) {
        words.push({ page: index + 1, text: match[5]!.replace(/&amp;/g, '&'), xMin: Number(match[1]), yMin: Number(match[2]), xMax: Number(match[3]), yMax: Number(match[4]) });
      }
    });
    return words;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Pairs of words whose boxes cross (on one page, by more than half a point both ways). */
function crossingWords(words: Word[]): string[] {
  const found: string[] = [];
  words.forEach((a, i) =>
    words.slice(i + 1).forEach((b) => {
      if (a.page !== b.page) return;
      const x = Math.min(a.xMax, b.xMax) - Math.max(a.xMin, b.xMin);
      const y = Math.min(a.yMax, b.yMax) - Math.max(a.yMin, b.yMin);
      if (x > 0.5 && y > 0.5) found.push(`page ${a.page}: "${a.text}" [${a.xMin}, ${a.yMin}] over "${b.text}" [${b.xMin}, ${b.yMin}]`);
    }),
  );
  return found;
}

describe("the month's incidents on the sheet", () => {
  /** A busy month: four records a day (the table fills pages), then 40 incidents of every type, several with stored UTC instants. */
  function busyMonth(): MonthlyReport {
    const lines: ReportLine[] = [];
    for (let day = 2; day <= 27; day++) {
      const date = `2026-11-${String(day).padStart(2, '0')}`;
      for (let part = 0; part < 4; part++) lines.push(line(date, `${String(8 + part * 2).padStart(2, '0')}:00`, `${String(9 + part * 2).padStart(2, '0')}:30`, 90, lines.length + 1));
    }
    const incidents: ReportIncident[] = Array.from({ length: 40 }, (_, index) => ({
      day: index % 5 === 0 ? '2026-11-27' : `2026-11-${String(2 + (index % 26)).padStart(2, '0')}`,
      kind: INCIDENT_KINDS[index % INCIDENT_KINDS.length]!,
      severity: (['low', 'medium', 'high'] as const)[index % 3]!,
      status: index % 2 ? 'closed' : 'open',
      description:
        index % 5 === 0
          ? `Clock-in at 2026-11-27T10:04:19.889Z (web, device phone-${index}) refused: time record #${index}, opened at 2026-11-26T22:15:00.000Z, is still open.`
          : `No clock-in by the first class at 09:00 (Europe/Madrid) plus 30 min of grace.${' And more.'.repeat(index % 4)}`,
    }));
    return report(lines, { incidents, totalMinutes: lines.length * 90 });
  }

  test.each(['en', 'es'] as const)('in %s: no two words share any space (pdftotext -bbox), over a page break; types in words, never the code', async (locale) => {
    const words = popplerWords(await renderReportPdf(busyMonth(), locale));
    expect(crossingWords(words)).toEqual([]);
    const text = words.map((word) => word.text).join(' ');
    for (const kind of INCIDENT_KINDS) expect(text).not.toContain(kind);
    expect(text).toContain(locale === 'es' ? 'Entrada con un registro abierto' : 'Clock-in while a record was open');
    expect(text).toContain(locale === 'es' ? 'Incidencias del mes (40)' : 'Incidents of the month (40)');
    // The incidents run over more than one page: their section starts on one page and its last row is on a later one.
    const heading = words.find((word) => word.text === (locale === 'es' ? 'Incidencias' : 'Incidents'))!;
    const lastDescription = words.filter((word) => word.text === 'refused:').at(-1)!;
    expect(lastDescription.page).toBeGreaterThan(heading.page);
  });

  test("stored UTC instants print as the academy's wall time h:mm (with the date when it is another day); no ISO instant is left", async () => {
    expect(localizeInstants('Clock-in at 2026-11-27T10:04:19.889Z refused: record opened at 2026-11-26T22:15:00.000Z.', '2026-11-27', 'Europe/Madrid')).toBe(
      'Clock-in at 11:04 refused: record opened at 26/11 23:15.',
    );
    expect(localizeInstants('at 2026-07-01T07:05:00Z', '2026-07-01', 'Europe/Madrid')).toBe('at 9:05'); // summer time, +02:00
    expect(localizeInstants('at 2026-11-27T23:30:00Z', '2026-11-27', 'Europe/Madrid')).toBe('at 28/11 0:30');
    const text = popplerWords(await renderReportPdf(busyMonth()))
      .map((word) => word.text)
      .join(' ');
    expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
    expect(text).toContain('Clock-in at 11:04 (web, device phone-0) refused: time record #0, opened at 26/11 23:15, is still open.');
  });
});

describe('GET /api/v2/timerecord/report.pdf', () => {
  // Pinned: Tuesday 2026-12-01 09:05 UTC, 10:05 in Madrid (the default academy time zone).
  const service = useIncidents({}, { clock: fixedClock(new Date('2026-12-01T09:05:00Z')) });
  const pdfOf = async (path: string, auth: Record<string, string>, headers: Record<string, string> = {}) => {
    const res = await request(service().url)
      .get(path)
      .set(auth)
      .set(headers)
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

  test('in the language the reader asks for (Accept-Language: es): Spanish words, the type as words, Content-Language es; English otherwise', async () => {
    const { employeeId, auth } = await seedEmployee(service(), { name: 'Iván Díaz Sánchez' });
    await insertRecord(service(), employeeId, '2026-11-25T08:00:00Z', '2026-11-25T08:59:00Z');
    await sql(
      service(),
      `insert into incidents (employee_id, kind, severity, status, description, day, created_at, updated_at) values ($1, 'CLOCK_IN_WHILE_OPEN', 'medium', 'open', $2, '2026-11-27', now(), now())`,
      [employeeId, 'Clock-in at 2026-11-27T10:04:19.889Z (web) refused: time record #1, opened at 2026-11-27T07:00:00.000Z, is still open.'],
    );
    const spanish = (await pdfOf('/api/v2/timerecord/report.pdf?month=2026-11', auth, { 'accept-language': 'es-ES,es;q=0.9,en;q=0.5' })).map((item) => item.text).join('\n');
    expect(spanish).toContain('Registro mensual de jornada: noviembre de 2026');
    expect(spanish).toContain('Incidencias del mes (1)');
    expect(spanish).toContain('Entrada con un registro abierto');
    expect(spanish).toContain('media, abierta');
    expect(spanish).not.toContain('CLOCK_IN_WHILE_OPEN');
    expect(spanish.replace(/\n/g, ' ')).toContain('Clock-in at 11:04 (web) refused: time record #1, opened at 8:00, is still open.');
    const res = await request(service().url).get('/api/v2/timerecord/report.pdf?month=2026-11').set(auth).set('accept-language', 'es');
    expect([res.headers['content-language'], res.headers.vary]).toEqual(['es', 'Accept-Language']);
    const english = (await pdfOf('/api/v2/timerecord/report.pdf?month=2026-11', auth, { 'accept-language': 'fr-FR' })).map((item) => item.text).join(' ');
    expect(english).toContain('Clock-in while a record was open');
  });
});
