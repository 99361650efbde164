import { describe, expect, test } from '@jest/globals';
import request from 'supertest';
import { multipartBody, sendRaw } from '@academy/testing/multipart';
import { pageTreeBomb, truncatedPdf } from '../hostile-pdfs.ts';
import { adminAuth, makePdf, monthOf, payslipPdf, seedEmployee, sql, storedFiles, upload, usePayslips, type PayslipsService } from '../support.ts';

/** Nothing of a refused upload remains: no row, no event, no stored file. */
async function expectNothingKept(service: PayslipsService, employeeId: number) {
  expect(await sql(service, `select id from payslips where employee_id = $1`, [employeeId])).toEqual([]);
  expect(await sql(service, `select id from outbox where envelope->'data'->>'employeeId' = $1`, [String(employeeId)])).toEqual([]);
  const keys = (await sql<{ storageKey: string }>(service, `select storage_key as "storageKey" from payslips union all select storage_key from payslip_batches where storage_key is not null`)).map((row) => row.storageKey);
  expect(storedFiles(service).filter((file) => !keys.some((key) => file.endsWith(key)))).toEqual([]);
}

const replace = (service: PayslipsService, id: number, file: Buffer) =>
  request(service.url).post(`/api/v2/payslips/${id}/replace`).set(adminAuth).attach('file', file, { filename: 'c.pdf', contentType: 'application/pdf' });

describe('hostile PDFs on POST /api/v2/payslips, /:id/replace and /batches', () => {
  // One worker, so uploads queue behind each other; the check's time limit well above this busy machine's cold start.
  const service = usePayslips({ BATCH_MAX_PAGES: 1000, PDF_WORKERS: 1, PDF_CHECK_TIMEOUT_MS: 60_000 });

  test.each([0.6, 0.8, 0.9])('the first %s of a valid payslip is 422 PDF_UNREADABLE as an upload and as a correction, and nothing is kept', async (fraction) => {
    const employee = await seedEmployee(service());
    const truncated = truncatedPdf(await payslipPdf(), fraction);
    expect(truncated.subarray(0, 4).toString()).toBe('%PDF');
    const res = await upload(service(), monthOf(employee.employeeId), truncated);
    expect([res.status, res.body.code]).toEqual([422, 'PDF_UNREADABLE']);
    await expectNothingKept(service(), employee.employeeId);

    const original = await upload(service(), monthOf(employee.employeeId), await payslipPdf());
    expect(original.status).toBe(201);
    const correction = await replace(service(), original.body.data.id, truncatedPdf(await payslipPdf(), fraction));
    expect([correction.status, correction.body.code]).toEqual([422, 'PDF_UNREADABLE']);
    expect(await sql(service(), `select id, superseded_by_id from payslips where employee_id = $1`, [employee.employeeId])).toEqual([{ id: original.body.data.id, superseded_by_id: null }]);
    expect(storedFiles(service())).toHaveLength((await sql(service(), `select id from payslips`)).length);
  });

  test('a 3 KB page tree declaring 67 million pages is refused in milliseconds (422 TOO_MANY_PAGES), and a normal upload right after is not delayed', async () => {
    const employee = await seedEmployee(service());
    const bomb = pageTreeBomb(26);
    expect(bomb.length).toBeLessThan(3 * 1024);
    // A worker thread that has started (its first start loads the PDF libraries: seconds on a busy machine).
    expect((await upload(service(), { ...monthOf(employee.employeeId), label: 'Antes' }, await payslipPdf())).status).toBe(201);
    for (const send of [() => upload(service(), monthOf(employee.employeeId), bomb), () => batchUpload(service(), bomb)]) {
      const started = performance.now();
      const res = await send();
      expect([res.status, res.body.code]).toEqual([422, 'TOO_MANY_PAGES']);
      // Walked page by page it took the check's whole time limit (60 s here), holding the one worker.
      expect(performance.now() - started).toBeLessThan(3_000);
    }
    const started = performance.now();
    const normal = await upload(service(), monthOf(employee.employeeId), await payslipPdf());
    expect(normal.status).toBe(201);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(await sql(service(), `select id from payslips where employee_id = $1`, [employee.employeeId])).toHaveLength(2);
  });

  test('a page tree naming a node twice within the page limit, or declaring fewer pages than it holds, is 422 PDF_UNREADABLE at once', async () => {
    const employee = await seedEmployee(service());
    const res = await upload(service(), monthOf(employee.employeeId), pageTreeBomb(3));
    expect([res.status, res.body.code]).toEqual([422, 'PDF_UNREADABLE']);
    await expectNothingKept(service(), employee.employeeId);
  });

  test('a single upload over the page limit has its own message, not the combined PDF one', async () => {
    const employee = await seedEmployee(service());
    const res = await upload(service(), monthOf(employee.employeeId), pageTreeBomb(11));
    expect([res.status, res.body.code]).toEqual([422, 'TOO_MANY_PAGES']);
    expect(res.body.message).toBe("A payslip's PDF may have at most 1000 pages");
    const batch = await batchUpload(service(), pageTreeBomb(11));
    expect(batch.body.message).toBe('A combined PDF may have at most 1000 pages');
  });

  test('an upload whose client goes away while its PDF is checked publishes nothing (the gateway gave up on it with a 504)', async () => {
    const employee = await seedEmployee(service());
    const long = await makePdf(Array.from({ length: 300 }, (_, page) => `Nómina, página ${page + 1}`));
    const fields = monthOf(employee.employeeId);
    const body = multipartBody([
      ...Object.entries(fields).map(([name, value]) => ({ name, value: String(value) })),
      { name: 'file', filename: 'nomina.pdf', contentType: 'application/pdf', value: long },
    ]);
    const gone = await sendRaw(service().url, { path: '/api/v2/payslips', headers: { ...adminAuth, 'content-type': body.contentType }, body: body.body, ending: 'abort' });
    expect(gone.status).toBe('closed');
    // The next upload waits for the one worker: once it is answered, the first one's check is over.
    const next = await upload(service(), { ...fields, label: 'Después' }, await payslipPdf());
    expect(next.status).toBe(201);
    expect(await sql(service(), `select label from payslips where employee_id = $1`, [employee.employeeId])).toEqual([{ label: 'Después' }]);
    expect(storedFiles(service())).toHaveLength((await sql(service(), `select id from payslips`)).length);
  });
});

describe('a stalled upload body', () => {
  const service = usePayslips();

  test("is answered 408 REQUEST_TIMEOUT by the service before the gateway's 10 s upstream timeout", async () => {
    const employee = await seedEmployee(service());
    const body = multipartBody([{ name: 'employeeId', value: String(employee.employeeId) }, { name: 'file', filename: 'n.pdf', contentType: 'application/pdf', value: await payslipPdf() }]);
    const stalled = await sendRaw(
      service().url,
      { path: '/api/v2/payslips', headers: { ...adminAuth, 'content-type': body.contentType }, body: body.body.subarray(0, 200), contentLength: body.body.length, ending: 'stall' },
      12_000,
    );
    expect(stalled.status).toBe(408);
    expect(stalled.ms).toBeLessThan(10_000);
    expect(JSON.parse((stalled as { body: string }).body).code).toBe('REQUEST_TIMEOUT');
    await expectNothingKept(service(), employee.employeeId);
  }, 20_000);
});

function batchUpload(service: PayslipsService, pdf: Buffer) {
  return request(service.url)
    .post('/api/v2/payslips/batches')
    .set(adminAuth)
    .field('periodStart', '2026-02-01')
    .field('periodEnd', '2026-02-28')
    .field('label', 'Nóminas febrero')
    .field('matchBy', 'taxId')
    .attach('file', pdf, { filename: 'remesa.pdf', contentType: 'application/pdf' });
}
