import { randomUUID } from 'node:crypto';
import { buffer } from 'node:stream/consumers';
import { describe, expect, test } from '@jest/globals';
import request from 'supertest';
import { createEnvelope, type PrivacySubject } from '@academy/contracts';
import { createLogger } from '@academy/kit';
import { personalFieldNames, type ProviderContext } from '@academy/privacy';
import { waitFor } from '@academy/testing';
import { purgePayslips } from '../../src/payslips/purge-payslips.ts';
import { PAYSLIPS_PERSONAL_FIELDS, payslipsPrivacy, payslipsProviders } from '../../src/privacy/payslips.privacy.ts';
import { employeeForPayslip } from '../../src/shared/employees.store.ts';
import { publishPayslip } from '../../src/shared/publish-payslip.ts';
import { payslipsService } from '../../src/service.ts';
import { adminAuth, monthOf, payslipPdf, seedEmployee, sql, storedFiles, upload, usePayslips, type PayslipsService } from '../support.ts';

describe("payslips' part of a personal data request", () => {
  const service = usePayslips();
  const deps = () => ({ storage: service().deps.storage, retentionYears: service().ctx.config.PAYSLIP_RETENTION_YEARS });
  const subjectOf = (employee: { employeeId: number; userId: number }): PrivacySubject => ({ kind: 'employee', id: employee.employeeId, userId: employee.userId, email: `employee${employee.employeeId}@academy.test` });
  const inTransaction = <T>(s: PayslipsService, run: (ctx: ProviderContext) => Promise<T>, subject: PrivacySubject) =>
    s.ctx.orm.em.fork().transactional((em) => run({ em, subject, requestId: randomUUID(), now: s.clock.now(), locale: 'es' }));

  /** An employee with two payslips (February, and January deleted by an admin) and a first download of February. */
  async function employeeWithPayslips() {
    const employee = await seedEmployee(service());
    const february = await payslipPdf();
    const january = await payslipPdf();
    const feb = (await upload(service(), monthOf(employee.employeeId, '2026-02'), february).expect(201)).body.data;
    const jan = (await upload(service(), monthOf(employee.employeeId, '2026-01'), january).expect(201)).body.data;
    await request(service().url).delete(`/api/v2/payslips/${jan.id}`).set(adminAuth).send({ reason: 'Wrong month' }).expect(200);
    await request(service().url).get(`/api/v2/payslips/${feb.id}/file`).set(employee.auth).expect(200);
    return { employee, feb, jan, february, january };
  }

  test('the export holds every payslip row (deleted ones too) field by field, with the view log and each PDF decrypted', async () => {
    const { employee, feb, jan, february, january } = await employeeWithPayslips();
    const other = await employeeWithPayslips();
    const answer = await inTransaction(service(), (ctx) => payslipsPrivacy(deps()).export(ctx), subjectOf(employee));
    expect(answer?.data).toEqual({
      payslips: [
        expect.objectContaining({ id: jan.id, label: 'Nómina 2026-01', periodStart: '2026-01-01', periodEnd: jan.periodEnd, deletedAt: '2026-03-10T10:00:00.000Z', deleteReason: 'Wrong month', firstViewedAt: null, restrictedAt: null, file: `payslip-${jan.id}-2026-01-01.pdf` }),
        expect.objectContaining({ id: feb.id, label: 'Nómina 2026-02', periodStart: '2026-02-01', periodEnd: '2026-02-28', sizeBytes: february.length, deletedAt: null, firstViewedAt: '2026-03-10T10:00:00.000Z', publishedAt: '2026-03-10T10:00:00.000Z', file: `payslip-${feb.id}-2026-02-01.pdf` }),
      ],
    });
    expect(JSON.stringify(answer?.data)).not.toContain('storageKey');
    expect(answer?.files?.map((file) => [file.name, file.mediaType])).toEqual([
      [`payslip-${jan.id}-2026-01-01.pdf`, 'application/pdf'],
      [`payslip-${feb.id}-2026-02-01.pdf`, 'application/pdf'],
    ]);
    expect(await buffer(await answer!.files![0]!.open())).toEqual(january);
    expect(await buffer(await answer!.files![1]!.open())).toEqual(february);
    // another employee's payslip is nowhere in the export (its id as an id, not as digits inside another number)
    expect(JSON.stringify(answer?.data)).not.toMatch(new RegExp(`"(id|supersedesId)":${other.feb.id}[,}]`));
    expect(await inTransaction(service(), (ctx) => payslipsPrivacy(deps()).export(ctx), { ...subjectOf(employee), id: 999_999 })).toBeNull();
  });

  test('a payslip published for the employee while the erasure runs (its transaction open) is restricted with the others', async () => {
    const { employee } = await employeeWithPayslips();
    const s = service();
    let commitUpload!: () => void;
    const uploadMayCommit = new Promise<void>((resolve) => (commitUpload = resolve));
    let uploadInserted!: () => void;
    const uploadHasInserted = new Promise<void>((resolve) => (uploadInserted = resolve));
    // An upload (or a batch's publish) has checked the employee and inserted the payslip; it commits later.
    const uploading = s.deps.sql.transaction(async (query) => {
      const person = await employeeForPayslip(query, employee.employeeId);
      const march = { label: 'Nómina marzo', periodStart: '2026-03-01', periodEnd: '2026-03-31', issuedOn: '2026-04-01', sizeBytes: 1, sha256: `race-${employee.employeeId}` };
      await publishPayslip(query, { ...march, storageKey: `race-${employee.employeeId}`, batchId: null, supersedesId: null, createdByUserId: 1, createdAt: s.clock.now() }, person, 'test-race');
      uploadInserted();
      await uploadMayCommit;
    });
    await uploadHasInserted;
    const erasing = inTransaction(
      s,
      async (ctx) => {
        for (const provider of payslipsProviders(deps())) await provider.erase(ctx);
      },
      subjectOf(employee),
    );
    // The erasure either waits for the upload's commit or (unserialized) restricts what it sees at once.
    await Promise.race([erasing, new Promise((resolve) => setTimeout(resolve, 300))]);
    commitUpload();
    await Promise.all([uploading, erasing]);
    expect(await sql(s, `select label, restricted_at is not null as restricted from payslips where employee_id = $1 order by id`, [employee.employeeId])).toEqual([
      { label: 'Nómina 2026-02', restricted: true },
      { label: 'Nómina 2026-01', restricted: true },
      { label: 'Nómina marzo', restricted: true },
    ]);
  });

  test('erasure keeps the payslips restricted until the day after their retention: no longer listed or downloadable by anyone, then purged; the replica is a blank tombstone', async () => {
    const { employee, feb, jan } = await employeeWithPayslips();
    const other = await employeeWithPayslips();
    const erase = () => inTransaction(service(), (ctx) => Promise.all(payslipsProviders(deps()).map((provider) => provider.erase(ctx))), subjectOf(employee));
    const kept = { what: 'payslips (2 files)', legalBasis: expect.stringContaining('4 years'), until: '2030-03-01' };
    expect(await erase()).toEqual([
      { erased: [], kept: [kept] },
      { erased: [{ what: 'employee record (replica)', count: 1 }], kept: [], identifiers: expect.arrayContaining([expect.any(String)]) },
    ]);
    expect(await sql(service(), `select user_id, name, email, tax_id_digest, payroll_code, deleted from employees where id = $1`, [employee.employeeId])).toEqual([
      { user_id: null, name: null, email: null, tax_id_digest: null, payroll_code: null, deleted: true },
    ]);
    // Restricted: the employee, the admin lists (deleted ones included) and every download refuse them.
    expect((await request(service().url).get('/api/v2/payslips/my').set(employee.auth)).body.data).toEqual([]);
    const listed = await request(service().url).get('/api/v2/payslips').query({ employeeId: employee.employeeId, include: 'deleted' }).set(adminAuth);
    expect(listed.body.data).toEqual([]);
    expect((await request(service().url).get('/api/v2/payslips').query({ employeeId: other.employee.employeeId, include: 'deleted' }).set(adminAuth)).body.data).toHaveLength(2);
    for (const id of [feb.id, jan.id]) {
      expect((await request(service().url).get(`/api/v2/payslips/${id}/file`).set(adminAuth)).status).toBe(404);
      expect((await request(service().url).get(`/api/v2/payslips/${id}`).set(adminAuth)).status).toBe(404);
    }
    // A second erasure erases nothing more and lists the same kept data.
    expect(await erase()).toEqual([{ erased: [], kept: [kept] }, { erased: [], kept: [] }]);
    const keys = (await sql<{ k: string }>(service(), `select storage_key as k from payslips where employee_id = $1`, [employee.employeeId])).map((row) => row.k);
    // The last is removed on `until` (2030-03-01 in Madrid), not the day before; January's went the day after its own period's four years.
    service().clock.set('2030-02-28T12:00:00.000Z');
    await purgePayslips(service().deps, {});
    expect(await sql(service(), `select id from payslips where employee_id = $1`, [employee.employeeId])).toEqual([{ id: feb.id }]);
    service().clock.set('2030-03-01T12:00:00.000Z');
    await purgePayslips(service().deps, {});
    expect(await sql(service(), `select id from payslips where employee_id = $1`, [employee.employeeId])).toEqual([]);
    expect(storedFiles(service()).filter((file) => keys.some((key) => file.endsWith(key)))).toEqual([]);
    expect(await sql(service(), `select count(*)::int as n from payslips where employee_id = $1`, [other.employee.employeeId])).toEqual([{ n: 1 }]);
    service().clock.set('2026-03-10T10:00:00.000Z');
    // Four uploads, two erasures and two purges: at load 45 more than Jest's 30 s, and a test past its timeout runs on
    // beside the next one, with the service's clock in 2030 and its purge removing the next test's deleted payslip.
  }, 90_000);

  test('an erased employee gets no new payslip: an upload for them is refused (a 4xx), nothing stored', async () => {
    const employee = await seedEmployee(service());
    await inTransaction(service(), (ctx) => Promise.all(payslipsProviders(deps()).map((provider) => provider.erase(ctx))), subjectOf(employee));
    const refused = await upload(service(), monthOf(employee.employeeId, '2026-02'), await payslipPdf());
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.status).toBeLessThan(500);
    expect(await sql(service(), `select id from payslips where employee_id = $1`, [employee.employeeId])).toEqual([]);
  });

  test('privacy.request.opened (access) on the bus is answered done with an export part', async () => {
    const { employee } = await employeeWithPayslips();
    const requestId = randomUUID();
    const opened = createEnvelope(
      'privacy.request.opened',
      { requestId, kind: 'access', subject: subjectOf(employee), locale: 'es', openedAt: '2026-03-10T10:00:00.000Z', deadline: '2026-04-10T10:00:00.000Z' },
      { source: 'academic' },
    );
    await service().ctx.broker.publish([opened]);
    await waitFor('the answer recorded', async () => (await sql(service(), `select 1 from privacy_answers where request_id = $1 and status = 'done'`, [requestId])).length > 0, 20_000, 100);
    const [row] = await sql<{ entries: { path: string }[] }>(service(), `select entries from privacy_answers where request_id = $1`, [requestId]);
    expect(row!.entries.map((entry) => entry.path).sort()).toEqual(expect.arrayContaining(['payslips.json', 'employee-replica.json']));
    expect(row!.entries.filter((entry) => entry.path.endsWith('.pdf'))).toHaveLength(2);
  });

  test('the service logger redacts every field its providers declare personal', () => {
    expect(payslipsService.personalFields).toEqual(personalFieldNames(payslipsProviders(deps())));
    expect(PAYSLIPS_PERSONAL_FIELDS).toEqual(expect.arrayContaining(['email', 'name', 'firstViewedAt', 'taxIdDigest']));
    const lines: string[] = [];
    const logger = createLogger('payslips', 'info', { write: (line: string) => void lines.push(line) }, { redact: payslipsService.personalFields });
    logger.info({ event: { data: Object.fromEntries(PAYSLIPS_PERSONAL_FIELDS.map((field) => [field, `secret-${field}`])) } }, 'nested');
    expect(lines.join('')).not.toContain('secret-');
  });
});
