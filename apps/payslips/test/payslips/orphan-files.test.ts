import { describe, expect, test } from '@jest/globals';
import request from 'supertest';
import { adminAuth, makePdf, monthOf, seedEmployee, sql, storedFiles, upload, usePayslips, type PayslipsService } from '../support.ts';

// Issue 35: a stored payslip file whose transaction then fails is removed, never left encrypted on
// disk with no row naming it. The failure is forced at commit (a deferred trigger), after every
// statement of the write succeeded.

/** Makes every commit that inserted a payslip of `employeeId` fail; answers the undo. */
async function failCommitsOf(service: PayslipsService, employeeId: number): Promise<() => Promise<void>> {
  await sql(
    service,
    `create function fail_payslip_${employeeId}() returns trigger language plpgsql as $$
     begin if new.employee_id = ${employeeId} then raise exception 'injected fault at commit'; end if; return new; end $$`,
  );
  await sql(service, `create constraint trigger fail_payslip_${employeeId} after insert on payslips deferrable initially deferred for each row execute function fail_payslip_${employeeId}()`);
  return async () => {
    await sql(service, `drop trigger fail_payslip_${employeeId} on payslips`);
  };
}

describe('a payslip file whose transaction fails is removed', () => {
  const service = usePayslips();

  test.each([
    ['without', undefined],
    ['with', 'orphan-upload'],
  ])('POST /payslips %s an Idempotency-Key: a commit that fails is a 500 with no payslip and no stored file; the retry publishes', async (_with, key) => {
    const ana = await seedEmployee(service());
    const pdf = await makePdf([`Nómina de ${ana.employeeId}`]);
    const before = storedFiles(service()).length;
    const undo = await failCommitsOf(service(), ana.employeeId);
    const failed = await (key ? upload(service(), monthOf(ana.employeeId), pdf).set('idempotency-key', key) : upload(service(), monthOf(ana.employeeId), pdf));
    await undo();
    expect(failed.status).toBe(500);
    expect(await sql(service(), `select id from payslips where employee_id = $1`, [ana.employeeId])).toEqual([]);
    expect(storedFiles(service())).toHaveLength(before);
    const retried = await (key ? upload(service(), monthOf(ana.employeeId), pdf).set('idempotency-key', key) : upload(service(), monthOf(ana.employeeId), pdf));
    expect(retried.status).toBe(201);
    expect(storedFiles(service())).toHaveLength(before + 1);
  });

  test('POST /payslips/:id/replace: a correction whose commit fails is a 500, the original stays published and the new file is not kept', async () => {
    const ana = await seedEmployee(service());
    const published = await upload(service(), monthOf(ana.employeeId, '2026-04'), await makePdf([`Nómina de ${ana.employeeId}`]));
    expect(published.status).toBe(201);
    const before = storedFiles(service()).length;
    const undo = await failCommitsOf(service(), ana.employeeId);
    const failed = await request(service().url)
      .post(`/api/v2/payslips/${published.body.data.id}/replace`)
      .set(adminAuth)
      .field('label', 'Nómina corregida')
      .attach('file', await makePdf([`Nómina corregida de ${ana.employeeId}`]), { filename: 'fix.pdf', contentType: 'application/pdf' });
    await undo();
    expect(failed.status).toBe(500);
    expect(await sql(service(), `select id, superseded_by_id as "supersededById" from payslips where employee_id = $1`, [ana.employeeId])).toEqual([{ id: published.body.data.id, supersededById: null }]);
    expect(storedFiles(service())).toHaveLength(before);
  });
});
