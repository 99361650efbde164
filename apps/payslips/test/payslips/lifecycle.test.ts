import { readFileSync } from 'node:fs';
import { buffer } from 'node:stream/consumers';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { describe, expect, test } from '@jest/globals';
import request from 'supertest';
import { diskStorage, encryptedStorage, FileDecryptionError } from '@academy/files';
import { purgePayslips } from '../../src/payslips/purge-payslips.ts';
import { adminAuth, monthOf, outboxEvents, payslipPdf, seedEmployee, sql, storedFiles, upload, usePayslips, type PayslipsService, type TestEmployee } from '../support.ts';

const publish = async (service: PayslipsService, employee: TestEmployee, month: string, extra: Record<string, string> = {}) => {
  const pdf = await payslipPdf();
  const res = await upload(service, { ...monthOf(employee.employeeId, month), ...extra }, pdf);
  expect(res.status).toBe(201);
  return { id: res.body.data.id as number, pdf };
};
const download = (service: PayslipsService, id: number, auth: Record<string, string>) =>
  request(service.url).get(`/api/v2/payslips/${id}/file`).set(auth).buffer(true).parse((res, done) => {
    const chunks: Buffer[] = [];
    res.on('data', (chunk: Buffer) => chunks.push(chunk));
    res.on('end', () => done(null, Buffer.concat(chunks)));
  });
const remove = (service: PayslipsService, id: number, body: unknown = { reason: 'Wrong employee' }) => request(service.url).delete(`/api/v2/payslips/${id}`).set(adminAuth).send(body as object);

describe('GET /api/v2/payslips/my and GET /api/v2/payslips', () => {
  const service = usePayslips();

  test("the employee's own payslips, newest first with full dates, filtered by year; nobody else's", async () => {
    const ana = await seedEmployee(service());
    const luis = await seedEmployee(service());
    const dec = await publish(service(), ana, '2025-12', { issuedOn: '2026-01-05' });
    const feb = await publish(service(), ana, '2026-02', { issuedOn: '2026-03-02' });
    const extra = await publish(service(), ana, '2026-02', { label: 'Paga extra', issuedOn: '2026-03-05' });
    await publish(service(), luis, '2026-02');
    const mine = await request(service().url).get('/api/v2/payslips/my').set(ana.auth);
    expect(mine.status).toBe(200);
    expect(mine.body.data.map((p: { id: number }) => p.id)).toEqual([extra.id, feb.id, dec.id]);
    expect(mine.body.data[2]).toEqual({
      id: dec.id,
      label: 'Nómina 2025-12',
      periodStart: '2025-12-01',
      periodEnd: '2025-12-30',
      issuedOn: '2026-01-05',
      sizeBytes: dec.pdf.length,
      correction: false,
      publishedAt: '2026-03-10T10:00:00.000Z',
    });
    const of2025 = await request(service().url).get('/api/v2/payslips/my?year=2025').set(ana.auth);
    expect(of2025.body.data.map((p: { id: number }) => p.id)).toEqual([dec.id]);
  });

  test.each(['year=25', 'year=2025x', 'year=0999', 'page=1', 'employeeId=3'])('GET /my?%s is 400', async (query) => {
    const ana = await seedEmployee(service());
    expect((await request(service().url).get(`/api/v2/payslips/my?${query}`).set(ana.auth)).status).toBe(400);
  });

  test('a token without an employee gets 403 NOT_AN_EMPLOYEE from /my; the admin list is admins only', async () => {
    expect((await request(service().url).get('/api/v2/payslips/my').set(adminAuth)).body.code).toBe('NOT_AN_EMPLOYEE');
    const ana = await seedEmployee(service());
    expect((await request(service().url).get('/api/v2/payslips').set(ana.auth)).status).toBe(403);
  });

  test('the admin list filters by employee, year and month, pages, and lists deleted ones only with include=deleted', async () => {
    const ana = await seedEmployee(service());
    const jan = await publish(service(), ana, '2026-01');
    const feb = await publish(service(), ana, '2026-02');
    const gone = await publish(service(), ana, '2026-02', { label: 'Mistake' });
    expect((await remove(service(), gone.id)).status).toBe(200);
    const all = await request(service().url).get(`/api/v2/payslips?employeeId=${ana.employeeId}`).set(adminAuth);
    expect(all.body.data.map((p: { id: number }) => p.id)).toEqual([feb.id, jan.id]);
    expect(all.body.meta).toEqual({ totalItems: 2, totalPages: 1, currentPage: 1, pageSize: 20 });
    const withDeleted = await request(service().url).get(`/api/v2/payslips?employeeId=${ana.employeeId}&include=deleted`).set(adminAuth);
    expect(withDeleted.body.data.map((p: { id: number; status: string }) => [p.id, p.status])).toEqual([
      [gone.id, 'deleted'],
      [feb.id, 'visible'],
      [jan.id, 'visible'],
    ]);
    const january = await request(service().url).get(`/api/v2/payslips?employeeId=${ana.employeeId}&year=2026&month=1`).set(adminAuth);
    expect(january.body.data.map((p: { id: number }) => p.id)).toEqual([jan.id]);
    const paged = await request(service().url).get(`/api/v2/payslips?employeeId=${ana.employeeId}&limit=1&page=2`).set(adminAuth);
    expect(paged.body.data.map((p: { id: number }) => p.id)).toEqual([jan.id]);
    expect(paged.body.meta).toEqual({ totalItems: 2, totalPages: 2, currentPage: 2, pageSize: 1 });
  });

  test.each(['month=1', 'month=13&year=2026', 'limit=101', 'page=0', 'include=all', 'employeeId=abc', 'sort=id'])('GET /?%s is 400', async (query) => {
    expect((await request(service().url).get(`/api/v2/payslips?${query}`).set(adminAuth)).status).toBe(400);
  });
});

describe('GET /api/v2/payslips/:id/file', () => {
  const service = usePayslips();

  test('its employee downloads the PDF as sent, privately; the first download sets firstViewedAt, an admin download does not', async () => {
    const ana = await seedEmployee(service());
    const { id, pdf } = await publish(service(), ana, '2026-02');
    const byAdmin = await download(service(), id, adminAuth);
    expect(byAdmin.status).toBe(200);
    expect((byAdmin.body as Buffer).equals(pdf)).toBe(true);
    const viewed = async () => (await request(service().url).get(`/api/v2/payslips?employeeId=${ana.employeeId}`).set(adminAuth)).body.data[0].firstViewedAt;
    expect(await viewed()).toBeNull();
    service().clock.set('2026-03-11T08:00:00.000Z');
    const res = await download(service(), id, ana.auth);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="payslip-2026-02-${id}.pdf"`);
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect((res.body as Buffer).equals(pdf)).toBe(true);
    expect(await viewed()).toBe('2026-03-11T08:00:00.000Z');
    service().clock.set('2026-03-12T08:00:00.000Z');
    await download(service(), id, ana.auth);
    expect(await viewed()).toBe('2026-03-11T08:00:00.000Z');
  });

  test('a HEAD by its employee answers the headers and no receipt: firstViewedAt stays empty until a GET sends the file', async () => {
    const ana = await seedEmployee(service());
    const { id } = await publish(service(), ana, '2026-02');
    const viewed = async () => (await request(service().url).get(`/api/v2/payslips?employeeId=${ana.employeeId}`).set(adminAuth)).body.data[0].firstViewedAt;
    const head = await request(service().url).head(`/api/v2/payslips/${id}/file`).set(ana.auth);
    expect([head.status, head.headers['content-type']]).toEqual([200, 'application/pdf']);
    expect(await viewed()).toBeNull();
    service().clock.set('2026-03-11T09:00:00.000Z');
    expect((await download(service(), id, ana.auth)).status).toBe(200);
    expect(await viewed()).toBe('2026-03-11T09:00:00.000Z');
  });

  test("another employee's payslip, an unknown id and a malformed id: 404, 404, 400 (its existence is not revealed)", async () => {
    const ana = await seedEmployee(service());
    const luis = await seedEmployee(service());
    const { id } = await publish(service(), ana, '2026-02');
    const other = await download(service(), id, luis.auth);
    const unknown = await download(service(), 99_999, luis.auth);
    expect([other.status, other.body.code ?? JSON.parse(other.body.toString()).code]).toEqual([404, 'PAYSLIP_NOT_FOUND']);
    expect(unknown.status).toBe(404);
    expect(JSON.parse(other.body.toString())).toEqual({ ...JSON.parse(unknown.body.toString()), requestId: expect.any(String) });
    expect((await request(service().url).get(`/api/v2/payslips/0x1/file`).set(luis.auth)).status).toBe(400);
  });
});

describe('DELETE /api/v2/payslips/:id and POST /api/v2/payslips/:id/replace', () => {
  const service = usePayslips();

  test('a deleted payslip is gone from its employee at once, downloadable by admins only, with its audit', async () => {
    const ana = await seedEmployee(service());
    const { id, pdf } = await publish(service(), ana, '2026-02');
    service().clock.set('2026-03-12T09:30:00.000Z');
    const res = await remove(service(), id, { reason: 'Sent to the wrong person' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id, status: 'deleted', deletedAt: '2026-03-12T09:30:00.000Z', deletedByUserId: 1, deleteReason: 'Sent to the wrong person' });
    expect((await request(service().url).get('/api/v2/payslips/my').set(ana.auth)).body.data).toEqual([]);
    expect((await download(service(), id, ana.auth)).status).toBe(404);
    const byAdmin = await download(service(), id, adminAuth);
    expect((byAdmin.body as Buffer).equals(pdf)).toBe(true);
    const again = await remove(service(), id);
    expect([again.status, again.body.code]).toEqual([409, 'PAYSLIP_DELETED']);
  });

  test.each([{}, { reason: '' }, { reason: 'ok' }, { reason: 'Valid reason', extra: 1 }, { reason: 42 }])('a delete with body %j is 400 and deletes nothing', async (body) => {
    const ana = await seedEmployee(service());
    const { id } = await publish(service(), ana, '2026-02');
    expect((await remove(service(), id, body)).status).toBe(400);
    expect((await request(service().url).get('/api/v2/payslips/my').set(ana.auth)).body.data).toHaveLength(1);
  });

  test('an employee cannot delete (403); an unknown payslip is 404', async () => {
    const ana = await seedEmployee(service());
    const { id } = await publish(service(), ana, '2026-02');
    expect((await request(service().url).delete(`/api/v2/payslips/${id}`).set(ana.auth).send({ reason: 'mine' })).status).toBe(403);
    expect((await remove(service(), 99_999)).status).toBe(404);
  });

  test('a correction supersedes the payslip (kept, hidden), keeps its period and label, and is announced once as payslip.corrected', async () => {
    const ana = await seedEmployee(service());
    const { id: oldId } = await publish(service(), ana, '2026-02');
    const corrected = await payslipPdf('Corrected');
    const res = await request(service().url)
      .post(`/api/v2/payslips/${oldId}/replace`)
      .set(adminAuth)
      .field('issuedOn', '2026-03-15')
      .attach('file', corrected, { filename: 'fixed.pdf', contentType: 'application/pdf' });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ label: 'Nómina 2026-02', periodStart: '2026-02-01', periodEnd: '2026-02-28', issuedOn: '2026-03-15', correction: true, supersedesPayslipId: oldId });
    const mine = await request(service().url).get('/api/v2/payslips/my').set(ana.auth);
    expect(mine.body.data.map((p: { id: number; correction: boolean }) => [p.id, p.correction])).toEqual([[res.body.data.id, true]]);
    expect((await download(service(), oldId, ana.auth)).status).toBe(404);
    const listed = await request(service().url).get(`/api/v2/payslips?employeeId=${ana.employeeId}&include=deleted`).set(adminAuth);
    expect(listed.body.data.find((p: { id: number }) => p.id === oldId)).toMatchObject({ status: 'superseded', supersededByPayslipId: res.body.data.id });
    const corrections = (await outboxEvents(service(), 'payslip.corrected')).filter((e) => e.data.employeeId === ana.employeeId);
    expect(corrections).toEqual([{ type: 'payslip.corrected', data: expect.objectContaining({ payslipId: res.body.data.id, supersedesPayslipId: oldId }) }]);
    const again = await request(service().url).post(`/api/v2/payslips/${oldId}/replace`).set(adminAuth).attach('file', await payslipPdf(), { filename: 'x.pdf', contentType: 'application/pdf' });
    expect([again.status, again.body.code]).toEqual([409, 'PAYSLIP_SUPERSEDED']);
    expect((await outboxEvents(service(), 'payslip.corrected')).filter((e) => e.data.employeeId === ana.employeeId)).toHaveLength(1);
  });

  test('a correction reverted to the original file is published: the superseded payslip does not block it', async () => {
    const ana = await seedEmployee(service());
    const { id: originalId, pdf: original } = await publish(service(), ana, '2026-02');
    const replace = (target: number, file: Buffer) =>
      request(service().url).post(`/api/v2/payslips/${target}/replace`).set(adminAuth).attach('file', file, { filename: 'x.pdf', contentType: 'application/pdf' });
    const wrong = await replace(originalId, await payslipPdf('Wrong'));
    expect(wrong.status).toBe(201);
    const reverted = await replace(wrong.body.data.id, original);
    expect([reverted.status, reverted.body.code]).toEqual([201, undefined]);
    expect(reverted.body.data).toMatchObject({ supersedesPayslipId: wrong.body.data.id, correction: true });
    const mine = await request(service().url).get('/api/v2/payslips/my').set(ana.auth);
    expect(mine.body.data.map((p: { id: number }) => p.id)).toEqual([reverted.body.data.id]);
    expect((await download(service(), reverted.body.data.id, ana.auth)).body.equals(original)).toBe(true);
    // Still refused: the same file as a visible payslip of the employee.
    const twice = await replace(reverted.body.data.id, original);
    expect([twice.status, twice.body.code]).toEqual([409, 'DUPLICATE_PAYSLIP']);
  });

  test('a correction with the same file, of a deleted payslip, or with periodEnd before the kept periodStart changes nothing', async () => {
    const ana = await seedEmployee(service());
    const { id, pdf } = await publish(service(), ana, '2026-02');
    const replace = (file: Buffer, fields: Record<string, string> = {}, target = id) => {
      const req = request(service().url).post(`/api/v2/payslips/${target}/replace`).set(adminAuth);
      for (const [name, value] of Object.entries(fields)) req.field(name, value);
      return req.attach('file', file, { filename: 'x.pdf', contentType: 'application/pdf' });
    };
    expect((await replace(pdf)).body.code).toBe('DUPLICATE_PAYSLIP');
    expect((await replace(await payslipPdf(), { periodEnd: '2026-01-15' })).status).toBe(400);
    const deleted = await publish(service(), ana, '2026-03');
    await remove(service(), deleted.id);
    expect((await replace(await payslipPdf(), {}, deleted.id)).body.code).toBe('PAYSLIP_DELETED');
    expect(await sql(service(), `select id from payslips where employee_id = $1`, [ana.employeeId])).toHaveLength(2);
    expect((await outboxEvents(service(), 'payslip.corrected')).filter((e) => e.data.employeeId === ana.employeeId)).toEqual([]);
  });
});

describe('purge after the retention period (pinned clock)', () => {
  const service = usePayslips({ PAYSLIP_RETENTION_YEARS: 4 });

  test('deleted and corrected payslips are kept until 4 years after their period ends, then row and file are purged; visible ones stay', async () => {
    const ana = await seedEmployee(service());
    service().clock.set('2022-01-10T10:00:00.000Z');
    const old = await publish(service(), ana, '2021-12');
    const newer = await publish(service(), ana, '2022-01');
    const visible = await publish(service(), ana, '2021-11');
    await remove(service(), old.id);
    await remove(service(), newer.id);
    const keyOf = async (id: number) => (await sql<{ k: string }>(service(), `select storage_key as k from payslips where id = $1`, [id]))[0]?.k;
    const oldKey = await keyOf(old.id);
    // Period of `old` ends 2021-12-30: kept through 2025-12-30, purged from 2025-12-31 (Madrid).
    service().clock.set('2025-12-30T22:59:00.000Z');
    expect(await purgePayslips(service().deps, {})).toBe(0);
    service().clock.set('2025-12-30T23:01:00.000Z');
    expect(await purgePayslips(service().deps, {})).toBe(1);
    expect(await keyOf(old.id)).toBeUndefined();
    expect(storedFiles(service()).some((file) => file.endsWith(oldKey!))).toBe(false);
    expect(await keyOf(newer.id)).toBeDefined();
    expect(await keyOf(visible.id)).toBeDefined();
    const stillListed = await request(service().url).get(`/api/v2/payslips?employeeId=${ana.employeeId}&include=deleted`).set(adminAuth);
    expect(stillListed.body.data.map((p: { id: number }) => p.id).sort()).toEqual([newer.id, visible.id].sort());
  });
});

describe('encryption at rest', () => {
  const service = usePayslips();

  test('the stored bytes are not the PDF, and reading them with a wrong key fails loudly', async () => {
    const ana = await seedEmployee(service());
    const { id, pdf } = await publish(service(), ana, '2026-02');
    const [{ k }] = (await sql<{ k: string }>(service(), `select storage_key as k from payslips where id = $1`, [id])) as [{ k: string }];
    const file = storedFiles(service()).find((f) => path.basename(f) === k)!;
    const stored = readFileSync(file);
    expect(stored.includes(Buffer.from('%PDF'))).toBe(false);
    expect(stored.length).toBeGreaterThan(pdf.length);
    const root = service().ctx.config.FILES_DIR;
    const rightKeys = service().ctx.config.PAYSLIP_FILE_KEYS;
    expect((await buffer((await encryptedStorage(diskStorage(root), rightKeys).open(k))!)).equals(pdf)).toBe(true);
    const wrong = encryptedStorage(diskStorage(root), { currentKeyId: rightKeys.currentKeyId, keys: new Map([[rightKeys.currentKeyId, randomBytes(32)]]) });
    await expect(wrong.open(k)).rejects.toThrow(FileDecryptionError);
  });
});
