import { describe, expect, test } from '@jest/globals';
import request from 'supertest';
import { adminAuth, batchWhenRead, makePdf, monthOf, seedEmployee, sql, storedFiles, upload, usePayslips, type PayslipsService, type TestEmployee } from '../support.ts';

// Issue 28: an Idempotency-Key covers an upload's file (item 1), a "try again" is not kept with the
// key (item 7), and the admin list's totals do not depend on the page asked for (item 8).

let unique = 0;
/** Two different payslip PDFs of exactly the same size (uncompressed, texts of one length): one template, two employees' figures. */
async function twinPdfs(): Promise<[Buffer, Buffer]> {
  const n = String(++unique).padStart(4, '0');
  const [a, b] = await Promise.all([makePdf([`Nómina ${n} importe 1.111,11`], { compress: false }), makePdf([`Nómina ${n} importe 2.222,22`], { compress: false })]);
  expect(a.length).toBe(b.length);
  expect(a.equals(b)).toBe(false);
  return [a, b];
}

const batchFields = { periodStart: '2026-02-01', periodEnd: '2026-02-28', label: 'Nómina febrero', matchBy: 'taxId' };
const page = (employee: TestEmployee, extra: string) => `Nómina de ${employee.employeeId}. NIF: ${employee.taxId}. ${extra}`;

function postBatch(service: PayslipsService, pdf: Buffer, key: string) {
  const req = request(service.url).post('/api/v2/payslips/batches').set(adminAuth).set('idempotency-key', key);
  for (const [name, value] of Object.entries(batchFields)) req.field(name, value);
  return req.attach('file', pdf, { filename: 'febrero.pdf', contentType: 'application/pdf' });
}

function replace(service: PayslipsService, id: number, pdf: Buffer, key: string) {
  return request(service.url).post(`/api/v2/payslips/${id}/replace`).set(adminAuth).set('idempotency-key', key).field('label', 'Nómina corregida').attach('file', pdf, { filename: 'fix.pdf', contentType: 'application/pdf' });
}

const count = async (service: PayslipsService, table: string) => (await sql<{ n: number }>(service, `select count(*)::int as n from ${table}`))[0]!.n;

describe('an Idempotency-Key on an upload covers its file', () => {
  const service = usePayslips();

  test('POST /payslips: the same key with the same PDF replays; with another PDF of the same size it is 422, nothing is published and its file is not kept', async () => {
    const ana = await seedEmployee(service());
    const [first, other] = await twinPdfs();
    const sent = await upload(service(), monthOf(ana.employeeId), first).set('idempotency-key', 'up-1');
    const files = storedFiles(service()).length;
    const retry = await upload(service(), monthOf(ana.employeeId), first).set('idempotency-key', 'up-1');
    const another = await upload(service(), monthOf(ana.employeeId), other).set('idempotency-key', 'up-1');
    expect([sent.status, retry.status, retry.headers['idempotent-replayed'], retry.body]).toEqual([201, 201, 'true', sent.body]);
    expect([another.status, another.body.code]).toEqual([422, 'IDEMPOTENCY_KEY_REUSED']);
    expect(await sql(service(), `select id from payslips where employee_id = $1`, [ana.employeeId])).toHaveLength(1);
    expect(storedFiles(service())).toHaveLength(files);
  });

  test('POST /payslips/batches: the same key with another combined PDF of the same size is 422 and makes no second batch', async () => {
    const ana = await seedEmployee(service());
    const [first, other] = await Promise.all([makePdf([page(ana, 'Importe 1.111,11')], { compress: false }), makePdf([page(ana, 'Importe 2.222,22')], { compress: false })]);
    expect(first.length).toBe(other.length);
    const batches = await count(service(), 'payslip_batches');
    const sent = await postBatch(service(), first, 'batch-1');
    expect(sent.status).toBe(202);
    await batchWhenRead(service(), sent.body.data.id);
    const retry = await postBatch(service(), first, 'batch-1');
    const another = await postBatch(service(), other, 'batch-1');
    expect([retry.status, retry.headers['idempotent-replayed'], retry.body.data.id]).toEqual([202, 'true', sent.body.data.id]);
    expect([another.status, another.body.code]).toEqual([422, 'IDEMPOTENCY_KEY_REUSED']);
    expect(await count(service(), 'payslip_batches')).toBe(batches + 1);
  });

  test('POST /payslips/:id/replace: the same key with another PDF of the same size is 422 and corrects nothing more', async () => {
    const ana = await seedEmployee(service());
    const original = await upload(service(), monthOf(ana.employeeId), (await twinPdfs())[0]);
    expect(original.status).toBe(201);
    const [first, other] = await twinPdfs();
    const sent = await replace(service(), original.body.data.id, first, 'fix-1');
    const retry = await replace(service(), original.body.data.id, first, 'fix-1');
    const another = await replace(service(), original.body.data.id, other, 'fix-1');
    expect(sent.status).toBe(201);
    expect([retry.status, retry.headers['idempotent-replayed'], retry.body]).toEqual([201, 'true', sent.body]);
    expect([another.status, another.body.code]).toEqual([422, 'IDEMPOTENCY_KEY_REUSED']);
    expect(await sql(service(), `select id from payslips where employee_id = $1`, [ana.employeeId])).toHaveLength(2);
  });
});

describe('a "try again" is not kept with the key', () => {
  const service = usePayslips();

  test('publishing with key K while the batch is being read is 409 BATCH_NOT_READY with Retry-After; once it is ready, the same K publishes', async () => {
    const ana = await seedEmployee(service());
    const sent = await postBatch(service(), await makePdf([page(ana, 'Importe 1.000,00')]), 'batch-for-publish');
    const batch = await batchWhenRead(service(), sent.body.data.id);
    expect(batch.status).toBe('ready');
    // Back to `reading`, as a publish racing the reader finds it.
    await sql(service(), `update payslip_batches set status = 'reading' where id = $1`, [batch.id]);
    const publish = () => request(service().url).post(`/api/v2/payslips/batches/${batch.id}/publish`).set(adminAuth).set('idempotency-key', 'K');
    const early = await publish();
    expect([early.status, early.body.code, early.headers['retry-after']]).toEqual([409, 'BATCH_NOT_READY', '2']);
    await sql(service(), `update payslip_batches set status = 'ready' where id = $1`, [batch.id]);
    const ready = await publish();
    expect([ready.status, ready.headers['idempotent-replayed'], ready.body.data.status]).toEqual([200, undefined, 'published']);
    expect(await sql(service(), `select id from payslips where batch_id = $1`, [batch.id])).toHaveLength(1);
  });
});

describe('GET /api/v2/payslips past its last page', () => {
  const service = usePayslips();

  test('13 payslips, page 3 of 10: no rows, and the totals of page 1 (13 items, 2 pages)', async () => {
    const ana = await seedEmployee(service());
    // The list reads rows only: 13 published payslips, one a month, written straight to the table.
    await sql(
      service(),
      `insert into payslips (employee_id, label, period_start, period_end, issued_on, size_bytes, sha256, storage_key, created_at)
       select $1, 'Nómina', m, m + 27, m + 30, 1000, md5(m::text) || md5(m::text), md5(m::text), $2 from generate_series('2025-01-01'::date, '2026-01-01'::date, interval '1 month') g, lateral (select g::date as m) d`,
      [ana.employeeId, new Date('2026-03-10T10:00:00.000Z')],
    );
    const list = (query: string) => request(service().url).get(`/api/v2/payslips?employeeId=${ana.employeeId}&${query}`).set(adminAuth);
    const [first, second, third] = [await list('page=1&limit=10'), await list('page=2&limit=10'), await list('page=3&limit=10')];
    expect([first.body.data.length, second.body.data.length, third.body.data.length]).toEqual([10, 3, 0]);
    for (const [res, currentPage] of [[first, 1], [second, 2], [third, 3]] as const) {
      expect(res.body.meta).toEqual({ totalItems: 13, totalPages: 2, currentPage, pageSize: 10 });
    }
  });
});
