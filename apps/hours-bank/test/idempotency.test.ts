import { beforeAll, describe, expect, test } from '@jest/globals';
import request from 'supertest';
import { bearer } from '@academy/testing';
import { bankRow, seedEmployee, seedSchoolCourse, sql, useHoursBank } from './support.ts';

const admin = bearer({ sub: '1', role: 'admin' });
const otherAdmin = bearer({ sub: '2', role: 'admin' });
const base = '/api/v2/hours-bank';

describe('POST /api/v2/hours-bank/:employeeId/completed with an Idempotency-Key', () => {
  const service = useHoursBank();
  let courseId: number;

  beforeAll(async () => {
    courseId = await seedSchoolCourse(service());
  });

  const add = (employeeId: number, key: string, time = '1h 0m', who = admin) =>
    request(service().url).post(`${base}/${employeeId}/completed`).set(who).set('Idempotency-Key', key).send({ time });
  const completedOf = async (employeeId: number) => (await bankRow(service(), employeeId, courseId))?.completed_minutes ?? 0;
  const count = async (text: string, params: unknown[]) => (await sql<{ n: number }>(service(), text, params))[0]!.n;
  const rowsOf = (employeeId: number) =>
    count('select count(*)::int as n from hours_transactions t join hours_banks b on b.id = t.hours_bank_id where b.employee_id = ?', [employeeId]);
  const eventsOf = (employeeId: number) =>
    count(`select count(*)::int as n from outbox where type = 'hours-bank.transaction.recorded' and (envelope->'data'->>'employeeId')::int = ?`, [employeeId]);
  const keysNamed = (key: string) => count('select count(*)::int as n from idempotency_keys where key = ?', [key]);

  test('a retry after the first commit answers the same body, replayed, and the hours, the row and the event count once', async () => {
    const employeeId = await seedEmployee(service());
    const first = await add(employeeId, 'hb-retry');
    const again = await add(employeeId, 'hb-retry');

    expect(first.status).toBe(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(again.status).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await completedOf(employeeId)).toBe(60);
    expect(await rowsOf(employeeId)).toBe(1);
    expect(await eventsOf(employeeId)).toBe(1);
  });

  test('20 concurrent requests with one key add the hours once: one executed, the others replayed or 409 Retry-After 1', async () => {
    const employeeId = await seedEmployee(service());
    const answers = await Promise.all(Array.from({ length: 20 }, () => add(employeeId, 'hb-race', '0h 30m')));

    const executed = answers.filter((res) => res.status === 200 && res.headers['idempotent-replayed'] === undefined);
    expect(executed).toHaveLength(1);
    for (const res of answers) {
      if (res.status === 409) {
        expect(res.headers['retry-after']).toBe('1');
        expect(res.body.code).toBe('IDEMPOTENCY_KEY_IN_USE');
      } else {
        expect(res.status).toBe(200);
        expect(res.body).toEqual(executed[0]!.body);
      }
    }
    expect(await completedOf(employeeId)).toBe(30);
    expect(await rowsOf(employeeId)).toBe(1);
    expect(await eventsOf(employeeId)).toBe(1);
  });

  test('the same key with another body is 422 naming the key, and adds nothing', async () => {
    const employeeId = await seedEmployee(service());
    await add(employeeId, 'hb-other', '1h 0m').expect(200);
    const res = await add(employeeId, 'hb-other', '2h 0m');

    expect(res.status).toBe(422);
    expect(res.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(res.body.message).toMatch(/Idempotency-Key/);
    expect(await completedOf(employeeId)).toBe(60);
  });

  test("another administrator's equal key is their own: it runs, and does not replay the first answer", async () => {
    const employeeId = await seedEmployee(service());
    const first = await add(employeeId, 'hb-shared');
    const other = await add(employeeId, 'hb-shared', '1h 0m', otherAdmin);

    expect(other.status).toBe(200);
    expect(other.headers['idempotent-replayed']).toBeUndefined();
    expect(other.body.data.transactionId).not.toBe(first.body.data.transactionId);
    expect(await completedOf(employeeId)).toBe(120);
  });

  test('a write whose transaction rolls back (a 5xx) leaves no key and no hours, and its retry runs', async () => {
    const employeeId = await seedEmployee(service());
    // The row insert fails for this employee only, as a database fault would.
    await sql(
      service(),
      `create function fail_hours_${employeeId}() returns trigger language plpgsql as $$
       begin
         if exists (select 1 from hours_banks where id = new.hours_bank_id and employee_id = ${employeeId}) then raise exception 'injected fault'; end if;
         return new;
       end $$;
       create trigger fail_hours_${employeeId} before insert on hours_transactions for each row execute function fail_hours_${employeeId}()`,
    );
    const failed = await add(employeeId, 'hb-rollback');
    expect(failed.status).toBe(500);
    expect(await keysNamed('hb-rollback')).toBe(0);
    expect(await completedOf(employeeId)).toBe(0);
    expect(await eventsOf(employeeId)).toBe(0);

    await sql(service(), `drop trigger fail_hours_${employeeId} on hours_transactions`);
    const retried = await add(employeeId, 'hb-rollback');
    expect(retried.status).toBe(200);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
    expect(await completedOf(employeeId)).toBe(60);
    expect(await keysNamed('hb-rollback')).toBe(1);
  });
});
