import { readFileSync } from 'node:fs';
import { describe, expect, test } from '@jest/globals';
import request from 'supertest';
import { adminAuth, makePdf, monthOf, outboxEvents, payslipPdf, PNG, seedEmployee, sql, storedFiles, upload, usePayslips } from '../support.ts';

describe('POST /api/v2/payslips', () => {
  const service = usePayslips({ PAYSLIP_MAX_MB: 0.05 });

  /** Nothing of a refused upload remains: no row, no event, no stored file. */
  async function expectNothingKept(employeeId: number) {
    expect(await sql(service(), `select id from payslips where employee_id = $1`, [employeeId])).toEqual([]);
    expect((await outboxEvents(service(), 'payslip.published')).filter((event) => event.data.employeeId === employeeId)).toEqual([]);
    const keys = (await sql<{ storageKey: string }>(service(), `select storage_key as "storageKey" from payslips`)).map((row) => row.storageKey);
    expect(storedFiles(service()).filter((file) => !keys.some((key) => file.endsWith(key)))).toEqual([]);
  }

  test('an admin uploads a payslip: 201 with full dates, stored encrypted, and payslip.published in the outbox', async () => {
    const employee = await seedEmployee(service(), { name: 'Ana Ruiz' });
    const pdf = await payslipPdf();
    const res = await upload(service(), { ...monthOf(employee.employeeId), issuedOn: '2026-03-02' }, pdf);
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      employeeId: employee.employeeId,
      employeeName: 'Ana Ruiz',
      label: 'Nómina 2026-02',
      periodStart: '2026-02-01',
      periodEnd: '2026-02-28',
      issuedOn: '2026-03-02',
      sizeBytes: pdf.length,
      status: 'visible',
      correction: false,
      firstViewedAt: null,
    });
    const [row] = await sql<{ storageKey: string }>(service(), `select storage_key as "storageKey" from payslips where id = $1`, [res.body.data.id]);
    const stored = readFileSync(storedFiles(service()).find((file) => file.endsWith(row!.storageKey))!);
    expect(stored.subarray(0, 5).toString('latin1')).not.toBe('%PDF-');
    expect(stored.includes(pdf.subarray(0, 200))).toBe(false);
    const [event] = (await outboxEvents(service(), 'payslip.published')).filter((e) => e.data.payslipId === res.body.data.id);
    expect(event!.data).toEqual({
      payslipId: res.body.data.id,
      employeeId: employee.employeeId,
      employee: { name: 'Ana Ruiz', email: `employee${employee.employeeId}@academy.test`, userId: employee.userId },
      label: 'Nómina 2026-02',
      periodStart: '2026-02-01',
      periodEnd: '2026-02-28',
      issuedOn: '2026-03-02',
      supersedesPayslipId: null,
      batchId: null,
    });
    expect(JSON.stringify(event)).not.toContain(employee.taxId);
  });

  test("without issuedOn it is today in the academy's time zone (Europe/Madrid), from the service's clock", async () => {
    const employee = await seedEmployee(service());
    // 23:30 in UTC on 31 March is already 1 April in Madrid (UTC+2).
    service().clock.set('2026-03-31T23:30:00.000Z');
    const res = await upload(service(), monthOf(employee.employeeId), await payslipPdf());
    expect(res.status).toBe(201);
    expect(res.body.data.issuedOn).toBe('2026-04-01');
    expect(res.body.data.publishedAt).toBe('2026-03-31T23:30:00.000Z');
  });

  test('several payslips per month and per period are allowed; the same file for the same employee twice is 409 and keeps one', async () => {
    const employee = await seedEmployee(service());
    const other = await seedEmployee(service());
    const pdf = await payslipPdf();
    expect((await upload(service(), monthOf(employee.employeeId), pdf)).status).toBe(201);
    expect((await upload(service(), { ...monthOf(employee.employeeId), label: 'Paga extra' }, await payslipPdf())).status).toBe(201);
    const again = await upload(service(), { ...monthOf(employee.employeeId), label: 'Otra' }, pdf);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('DUPLICATE_PAYSLIP');
    expect(await sql(service(), `select id from payslips where employee_id = $1`, [employee.employeeId])).toHaveLength(2);
    expect((await upload(service(), monthOf(other.employeeId), pdf)).status).toBe(201);
    expect(storedFiles(service()).length).toBe((await sql(service(), `select id from payslips`)).length);
  });

  test.each([
    { what: 'a PNG sent as application/pdf', file: async () => PNG, filename: 'nomina.pdf', contentType: 'application/pdf', status: 415, code: 'FILE_TYPE_NOT_ALLOWED' },
    { what: 'text named .pdf', file: async () => Buffer.from('not a pdf at all, just text'), filename: 'nomina.pdf', contentType: 'application/pdf', status: 415, code: 'FILE_TYPE_NOT_ALLOWED' },
    { what: 'a PDF declared as an image', file: () => payslipPdf(), filename: 'nomina.png', contentType: 'image/png', status: 415, code: 'FILE_TYPE_NOT_ALLOWED' },
    { what: 'a password-protected PDF', file: () => makePdf(['secret'], { userPassword: 'x' }), filename: 'nomina.pdf', contentType: 'application/pdf', status: 422, code: 'PDF_ENCRYPTED' },
    { what: 'a truncated PDF', file: async () => (await payslipPdf()).subarray(0, 300), filename: 'nomina.pdf', contentType: 'application/pdf', status: 422, code: 'PDF_UNREADABLE' },
    {
      what: 'a PDF over PAYSLIP_MAX_MB',
      file: () => makePdf(Array.from({ length: 60 }, (_, i) => `page ${i} `.repeat(200)), { compress: false }),
      filename: 'nomina.pdf',
      contentType: 'application/pdf',
      status: 413,
      code: 'FILE_TOO_LARGE',
    },
  ])('$what is refused ($status $code) and nothing is kept', async ({ file, filename, contentType, status, code }) => {
    const employee = await seedEmployee(service());
    const res = await upload(service(), monthOf(employee.employeeId), await file(), { filename, contentType });
    expect(res.status).toBe(status);
    expect(res.body.code).toBe(code);
    await expectNothingKept(employee.employeeId);
  });

  test.each([
    ['periodEnd before periodStart', { periodStart: '2026-02-10', periodEnd: '2026-02-01' }, 'periodEnd'],
    ['a malformed date', { periodStart: '2026-02-30' }, 'periodStart'],
    ['a date in another format', { issuedOn: '02/03/2026' }, 'issuedOn'],
    ['an employee id with a leading zero', { employeeId: '01' }, 'employeeId'],
    ['an employee id with a sign', { employeeId: '+5' }, 'employeeId'],
    ['an empty label', { label: '  ' }, 'label'],
    ['a label over 120 characters', { label: 'x'.repeat(121) }, 'label'],
  ])('%s is 400 VALIDATION_ERROR naming the field, and nothing is kept', async (_name, change, field) => {
    const employee = await seedEmployee(service());
    const res = await upload(service(), { ...monthOf(employee.employeeId), ...change }, await payslipPdf());
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    expect(res.body.details.map((d: { path: string }) => d.path)).toContain(field);
    await expectNothingKept(employee.employeeId);
  });

  test('an unknown field, a field sent twice, and a missing file are 400', async () => {
    const employee = await seedEmployee(service());
    const unknown = await upload(service(), { ...monthOf(employee.employeeId), amount: '1200' }, await payslipPdf());
    expect([unknown.status, unknown.body.code]).toEqual([400, 'MALFORMED_MULTIPART']);
    const twice = request(service().url).post('/api/v2/payslips').set(adminAuth);
    for (const [name, value] of Object.entries(monthOf(employee.employeeId))) twice.field(name, String(value));
    const res = await twice.field('label', 'again').attach('file', await payslipPdf(), { filename: 'a.pdf', contentType: 'application/pdf' });
    expect([res.status, res.body.code]).toEqual([400, 'MALFORMED_MULTIPART']);
    const noFile = await upload(service(), monthOf(employee.employeeId), null);
    expect([noFile.status, noFile.body.code]).toEqual([400, 'FILE_REQUIRED']);
    const json = await request(service().url).post('/api/v2/payslips').set(adminAuth).send(monthOf(employee.employeeId));
    expect([json.status, json.body.code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
    await expectNothingKept(employee.employeeId);
  });

  test('an unknown employee is 404 and a deactivated one 409, keeping nothing', async () => {
    const unknown = await upload(service(), monthOf(987_654), await payslipPdf());
    expect([unknown.status, unknown.body.code]).toEqual([404, 'EMPLOYEE_NOT_FOUND']);
    const inactive = await seedEmployee(service(), { active: false });
    const res = await upload(service(), monthOf(inactive.employeeId), await payslipPdf());
    expect([res.status, res.body.code]).toEqual([409, 'EMPLOYEE_INACTIVE']);
    await expectNothingKept(987_654);
    await expectNothingKept(inactive.employeeId);
  });

  test('an employee (not an admin) cannot upload: 403, and without a token 401', async () => {
    const employee = await seedEmployee(service());
    expect((await upload(service(), monthOf(employee.employeeId), await payslipPdf(), {}, employee.auth)).status).toBe(403);
    expect((await upload(service(), monthOf(employee.employeeId), await payslipPdf(), {}, {})).status).toBe(401);
    await expectNothingKept(employee.employeeId);
  });
});
