import { describe, expect, test } from '@jest/globals';
import request from 'supertest';
import { DEV_TAX_ID_DIGEST_KEY, taxIdDigest } from '@academy/contracts';
import { admin, useAcademic, user } from '../support.ts';

describe('employee tax id and payroll code (/api/v2/employees)', () => {
  const { service, f } = useAcademic();
  const api = () => request(service().url);
  const upserts = (id: number) =>
    f.query<{ version: number; data: Record<string, unknown> }>(`select envelope->'version' as version, envelope->'data' as data from outbox where type = 'employee.upserted' and (envelope->'data'->>'id')::int = ? order by id`, [id]);
  const counts = async () => (await f.query<{ employees: number; outbox: number }>(`select (select count(*) from employees)::int as employees, (select count(*) from outbox)::int as outbox`))[0];

  test('a DNI written loosely is stored normalized, answered to admins, found by search; employee.upserted carries its keyed digest (version 3), never the id, and no version 2 twin goes with it', async () => {
    const created = await api().post('/api/v2/employees').set(admin).send({ name: 'Ana', lastname: 'Ruiz', taxId: '12.345.678-z', payrollCode: 'EMP-0001' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ taxId: '12345678Z', payrollCode: 'EMP-0001' });
    expect((await api().get(`/api/v2/employees/${created.body.id}`).set(admin)).body).toMatchObject({ taxId: '12345678Z', payrollCode: 'EMP-0001' });
    const found = await api().get('/api/v2/employees').query({ search: '12345678Z' }).set(admin);
    expect(found.body.data.map((e: { id: number }) => e.id)).toEqual([created.body.id]);
    const [current, ...others] = await upserts(created.body.id);
    expect(others).toEqual([]);
    expect(current).toEqual({ version: 3, data: expect.objectContaining({ taxIdDigest: taxIdDigest('12345678Z', DEV_TAX_ID_DIGEST_KEY), payrollCode: 'EMP-0001' }) });
    expect(current.data).not.toHaveProperty('taxId');
    expect(JSON.stringify(current)).not.toContain('12345678Z');
  });

  test('a NIE is accepted; an update sets, changes and clears the fields, each change announced', async () => {
    const created = await api().post('/api/v2/employees').set(admin).send({ name: 'Iván', lastname: 'Pop' });
    expect(created.body).toMatchObject({ taxId: null, payrollCode: null });
    const id = created.body.id;
    expect((await api().patch(`/api/v2/employees/${id}`).set(admin).send({ taxId: 'x1234567l' })).body.taxId).toBe('X1234567L');
    expect((await api().patch(`/api/v2/employees/${id}`).set(admin).send({ taxId: null, payrollCode: 'P/77' })).body).toMatchObject({ taxId: null, payrollCode: 'P/77' });
    expect((await upserts(id)).map((event) => [event.version, event.data.taxIdDigest, event.data.payrollCode])).toEqual([
      [3, null, null],
      [3, taxIdDigest('X1234567L', DEV_TAX_ID_DIGEST_KEY), null],
      [3, null, 'P/77'],
    ]);
  });

  test('a tax id with a wrong control letter, or in another shape, is a 400 naming the field, and nothing changes', async () => {
    const before = await counts();
    for (const taxId of ['12345678A', 'X1234567X', '1234567Z', 'ABCDEFGHI', 12345678]) {
      const refused = await api().post('/api/v2/employees').set(admin).send({ name: 'Bad', lastname: 'Id', taxId });
      expect({ taxId, status: refused.status }).toEqual({ taxId, status: 400 });
      expect(refused.body.message).toContain('taxId');
    }
    const refusedCode = await api().post('/api/v2/employees').set(admin).send({ name: 'Bad', lastname: 'Code', payrollCode: 'two words' });
    expect(refusedCode.status).toBe(400);
    expect(refusedCode.body.message).toContain('payrollCode');
    expect(await counts()).toEqual(before);
  });

  test('a tax id or payroll code another employee has is a 409 that does not repeat the value, and nothing changes', async () => {
    const first = await api().post('/api/v2/employees').set(admin).send({ name: 'Eva', lastname: 'Gil', taxId: '00000005M', payrollCode: 'EMP-0005' });
    expect(first.status).toBe(201);
    const other = await api().post('/api/v2/employees').set(admin).send({ name: 'Leo', lastname: 'Gil' });
    const before = await counts();

    const sameTaxId = await api().post('/api/v2/employees').set(admin).send({ name: 'Eva', lastname: 'Copy', taxId: '00000005-m' });
    expect(sameTaxId.status).toBe(409);
    expect(sameTaxId.body).toMatchObject({ code: 'TAX_ID_TAKEN', message: 'Another employee has this tax id' });
    expect(JSON.stringify(sameTaxId.body)).not.toContain('00000005');
    const patchedTaxId = await api().patch(`/api/v2/employees/${other.body.id}`).set(admin).send({ taxId: '00000005M' });
    expect(patchedTaxId.status).toBe(409);
    expect(patchedTaxId.body.code).toBe('TAX_ID_TAKEN');
    const samePayrollCode = await api().patch(`/api/v2/employees/${other.body.id}`).set(admin).send({ payrollCode: 'EMP-0005' });
    expect(samePayrollCode.status).toBe(409);
    expect(samePayrollCode.body.code).toBe('PAYROLL_CODE_TAKEN');

    expect(await counts()).toEqual(before);
    expect((await api().get(`/api/v2/employees/${other.body.id}`).set(admin)).body).toMatchObject({ taxId: null, payrollCode: null });
  });

  test('many employees may have no tax id and no payroll code', async () => {
    for (const name of ['One', 'Two', 'Three']) expect((await api().post('/api/v2/employees').set(admin).send({ name, lastname: 'None', taxId: null, payrollCode: null })).status).toBe(201);
  });

  test('a non-admin never sees a tax id: the employee routes answer 403 without it', async () => {
    const created = await api().post('/api/v2/employees').set(admin).send({ name: 'Sara', lastname: 'Vidal', taxId: '00000009D' });
    expect(created.body.taxId).toBe('00000009D');
    for (const path of [`/api/v2/employees/${created.body.id}`, '/api/v2/employees', `/api/v2/employees?search=00000009D`]) {
      const answer = await api().get(path).set(user);
      expect({ path, status: answer.status }).toEqual({ path, status: 403 });
      expect(answer.text).not.toContain('00000009D');
    }
  });
});
