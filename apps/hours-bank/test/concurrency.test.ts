import { beforeAll, describe, expect, test } from '@jest/globals';
import pg from 'pg';
import request from 'supertest';
import { pgArray } from '@academy/db';
import type { RunningService } from '@academy/service';
import { bearer, waitFor } from '@academy/testing';
import { replay, type OperationType } from '../src/hours-bank/offsetting.ts';
import { bankRow, seedEmployee, seedSchoolCourse, sql, useHoursBank } from './support.ts';
import type { Config } from '../src/config.ts';

const admin = bearer({ role: 'admin' });
const base = '/api/v2/hours-bank';

describe('concurrent operations on one bank', () => {
  // The harness's slot: a start slower than a hook's 30 s at load is waited for (120 s), and stopped even when it ends late.
  const started = useHoursBank();
  let service: RunningService<Config>;
  let courseId: number;

  beforeAll(async () => {
    service = started();
    courseId = await seedSchoolCourse(service);
  });

  test('200 concurrent adds, edits and deletes: the totals equal the serial replay of the surviving rows', async () => {
    const employeeId = await seedEmployee(service);
    const api = () => request(service.url);
    // Deterministic mix: minutes and kinds vary, edits and deletes aim at a shared set of rows so they collide.
    const minutesOf = (i: number) => 5 + ((i * 37) % 175);
    const timeOf = (i: number) => `${Math.floor(minutesOf(i) / 60)}h ${minutesOf(i) % 60}m`;
    const initial: number[] = [];
    for (let i = 0; i < 30; i++) {
      const kind = i % 2 === 0 ? 'completed' : 'pending';
      initial.push((await api().post(`${base}/${employeeId}/${kind}`).set(admin).send({ time: timeOf(i) })).body.data.transactionId);
    }
    const calls = Array.from({ length: 200 }, (_, i) => {
      const target = initial[(i * 7) % initial.length];
      const time = timeOf(i);
      switch (i % 4) {
        case 0:
          return api().post(`${base}/${employeeId}/completed`).set(admin).send({ time });
        case 1:
          return api().post(`${base}/${employeeId}/pending`).set(admin).send({ time });
        case 2:
          return api().put(`${base}/transactions/${target}`).set(admin).send({ time });
        default:
          return api().delete(`${base}/transactions/${target}`).set(admin);
      }
    });
    const responses = await Promise.all(calls);

    const statuses = responses.map((res) => res.status);
    expect(statuses.every((status) => status === 200 || status === 404)).toBe(true);
    expect(statuses.filter((_, i) => i % 4 < 2).every((status) => status === 200)).toBe(true);
    for (const res of responses.filter((r) => r.status === 404)) expect(res.body.message).toBe('Transaction not found');

    const rows = await sql<{ type: OperationType | 'REVERSAL'; total_minutes: number; is_active: boolean; pending: number; completed: number }>(
      service,
      `select t.type, t.total_minutes, t.is_active, t.pending_affected_minutes as pending, t.completed_affected_minutes as completed
       from hours_transactions t join hours_banks b on b.id = t.hours_bank_id where b.employee_id = ? order by t.created_at, t.id`,
      [employeeId],
    );
    const surviving = rows.filter((row) => row.is_active).map((row) => ({ type: row.type as OperationType, minutes: row.total_minutes }));
    const bank = await bankRow(service, employeeId, courseId);
    const expected = replay(surviving);
    expect(bank).toEqual({ pending_minutes: expected.pendingMinutes, completed_minutes: expected.completedMinutes });
    // Every row's recorded effect adds up to the totals too, and each undone row has exactly one REVERSAL.
    expect(rows.reduce((sum, row) => sum + row.pending, 0)).toBe(bank!.pending_minutes);
    expect(rows.reduce((sum, row) => sum + row.completed, 0)).toBe(bank!.completed_minutes);
    const undone = rows.filter((row) => row.type !== 'REVERSAL' && !row.is_active).length;
    expect(rows.filter((row) => row.type === 'REVERSAL')).toHaveLength(undone);
    const succeeded = (kind: number) => responses.filter((res, i) => i % 4 === kind && res.status === 200).length;
    // The mix did collide: some edits and deletes found their row, others found it gone.
    expect(succeeded(2)).toBeGreaterThan(0);
    expect(succeeded(3)).toBeGreaterThan(0);
    expect(succeeded(2) + succeeded(3)).toBeLessThan(100);
    // Each add writes a row and each successful edit its new one; each successful edit or delete undoes exactly one.
    const written = rows.filter((row) => row.type !== 'REVERSAL');
    expect(written).toHaveLength(30 + 100 + succeeded(2));
    expect(written.filter((row) => !row.is_active)).toHaveLength(succeeded(2) + succeeded(3));
    expect(surviving).toHaveLength(30 + 100 - succeeded(3));
    expect(bank!.pending_minutes > 0 && bank!.completed_minutes > 0).toBe(false);
  });

  test('40 concurrent first additions to an employee with no bank: one bank, every row on it, totals and events right', async () => {
    const employeeId = await seedEmployee(service);
    const api = () => request(service.url);
    const responses = await Promise.all(
      Array.from({ length: 40 }, (_, i) => api().post(`${base}/${employeeId}/${i % 2 === 0 ? 'completed' : 'pending'}`).set(admin).send({ time: i % 2 === 0 ? '1h 10m' : '1h' })),
    );
    expect(responses.map((res) => res.status)).toEqual(Array(40).fill(200));
    const banks = await sql<{ id: number }>(service, 'select id from hours_banks where employee_id = ?', [employeeId]);
    expect(banks).toHaveLength(1);
    // 20 × 70 − 20 × 60 = 200 minutes completed, whatever the order.
    expect(await bankRow(service, employeeId, courseId)).toEqual({ pending_minutes: 0, completed_minutes: 200 });
    const ids = responses.map((res) => res.body.data.transactionId as number);
    const rows = await sql<{ hours_bank_id: number }>(service, 'select hours_bank_id from hours_transactions where id = any(?::int[])', [pgArray(ids)]);
    expect(rows.map((row) => row.hours_bank_id)).toEqual(Array(40).fill(banks[0]!.id));
    const events = await sql<{ bank: number }>(
      service,
      `select (envelope->'data'->>'hoursBankId')::int as bank from outbox where type = 'hours-bank.transaction.recorded' and (envelope->'data'->>'employeeId')::int = ?`,
      [employeeId],
    );
    expect(events.map((event) => event.bank)).toEqual(Array(40).fill(banks[0]!.id));
  });

  test('while one bank is locked, operations on it wait and operations on another bank do not', async () => {
    const locked = await seedEmployee(service);
    const free = await seedEmployee(service);
    const api = () => request(service.url);
    await api().post(`${base}/${locked}/completed`).set(admin).send({ time: '1h' }).expect(200);
    await api().post(`${base}/${free}/completed`).set(admin).send({ time: '1h' }).expect(200);
    const holder = new pg.Client({ connectionString: service.ctx.config.DATABASE_URL });
    await holder.connect();
    try {
      await holder.query('begin');
      await holder.query('select 1 from hours_banks where employee_id = $1 for update', [locked]);
      const [{ pid: holderPid }] = (await holder.query<{ pid: number }>('select pg_backend_pid() as pid')).rows as [{ pid: number }];
      let settled = false;
      const waiting = api()
        .post(`${base}/${locked}/completed`)
        .set(admin)
        .send({ time: '30m' })
        .then((res) => {
          settled = true;
          return res;
        });
      // The service's statement is seen waiting for the holder's lock (PostgreSQL says who blocks whom), not assumed from a pause.
      const blockedByHolder = async () =>
        (
          await holder.query<{ wait_event_type: string }>(
            'select wait_event_type from pg_stat_activity where $1::int = any(pg_blocking_pids(pid))',
            [holderPid],
          )
        ).rows;
      // pg_blocking_pids is live while pg_stat_activity's wait event is sampled: poll until both agree.
      const blocked = await waitFor('the operation on the locked bank to wait for its lock', async () => {
        const rows = await blockedByHolder();
        return rows.length && rows.every((row) => row.wait_event_type === 'Lock') ? rows : null;
      }, 10_000, 20);
      expect(blocked.map((row) => row.wait_event_type)).toEqual(['Lock']);
      const other = await api().post(`${base}/${free}/completed`).set(admin).send({ time: '30m' });
      expect(other.status).toBe(200);
      // Still waiting after the other bank's operation went through.
      expect(await blockedByHolder()).toHaveLength(1);
      expect(settled).toBe(false);
      await holder.query('commit');
      const res = await waiting;
      expect(res.status).toBe(200);
      expect(res.body.data.totals.completedHours).toBe('1h 30m');
    } finally {
      await holder.end();
    }
  });
});
