// `npm run test:system`: every user journey through the gateway only, as a client would (plain
// fetch, socket.io-client), against the whole system started as `npm start` starts it
// (tools/system/harness.ts). Then faults: a service killed and restarted, the broker restarted.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { DEMO, startTestSystem, type BackendName, type TestSystem } from './harness.ts';
import { call, eventually, login, type Session } from './client.ts';

let system: TestSystem;
let gw: string;
let admin: Session;
let teacher: Session;

beforeAll(async () => {
  system = await startTestSystem({ name: 'system', redisDb: 13, log: (line) => process.stderr.write(`[system] ${line}\n`) });
  gw = system.gateway;
  admin = await login(gw, DEMO.admin);
  teacher = await login(gw, DEMO.teacher(1));
}, 240_000);

afterAll(async () => {
  await system?.stop();
}, 60_000);

/** Every outbox row of every service has been published. */
async function outboxesDrained(): Promise<Record<BackendName, number>> {
  const counts = {} as Record<BackendName, number>;
  for (const service of ['academic', 'hours-bank', 'incidents', 'notifications'] as BackendName[]) {
    const [row] = await system.sql<{ n: number }>(service, 'select count(*)::int n from outbox where published_at is null');
    counts[service] = row.n;
  }
  return counts;
}

describe('sessions', () => {
  test('a user logs in, reads who they are, refreshes, logs out; the spent and the logged-out refresh tokens are refused', async () => {
    const session = await login(gw, DEMO.teacher(2));
    expect(session.user).toMatchObject({ email: 'teacher2@academy.local', role: 'user' });
    const me = await call(gw, 'GET', '/api/v2/auth/me', { token: session.accessToken });
    expect(me.status).toBe(200);
    expect(me.body.user.email).toBe('teacher2@academy.local');

    const refreshed = await call(gw, 'POST', '/api/v2/auth/refresh', { body: { refreshToken: session.refreshToken } });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.refreshToken).not.toBe(session.refreshToken);
    expect((await call(gw, 'GET', '/api/v2/auth/me', { token: refreshed.body.accessToken })).status).toBe(200);

    const logout = await call(gw, 'POST', '/api/v2/auth/logout', { body: { refreshToken: refreshed.body.refreshToken } });
    expect(logout.status).toBe(204);
    const afterLogout = await call(gw, 'POST', '/api/v2/auth/refresh', { body: { refreshToken: refreshed.body.refreshToken } });
    expect(afterLogout.status).toBe(401);
    // The first refresh token was spent by the refresh: presenting it again is refused too.
    expect((await call(gw, 'POST', '/api/v2/auth/refresh', { body: { refreshToken: session.refreshToken } })).status).toBe(401);
  });

  test('a wrong password is a 401 and no token works without a login', async () => {
    const wrong = await call(gw, 'POST', '/api/v2/auth/login', { body: { email: DEMO.admin.email, password: 'not-the-password' } });
    expect(wrong.status).toBe(401);
    expect((await call(gw, 'GET', '/api/v2/hours-bank/1')).status).toBe(401);
    expect((await call(gw, 'GET', '/api/v2/hours-bank/1', { token: 'not.a.jwt' })).status).toBe(401);
  });
});

describe('event assignment', () => {
  test('an admin sets the students of a class: a pending registration is refused, a removed student leaves the class', async () => {
    const events = await call(gw, 'GET', '/api/v2/calendar-events?limit=100', { token: admin.accessToken });
    expect(events.status).toBe(200);
    // A class whose subject and center have a pending registration of the latest course.
    let chosen: { event: { id: number; employeeId: number; subjectId: number; centerId: number }; pending: number; active: number[] } | undefined;
    for (const event of events.body.data) {
      const available = await call(gw, 'GET', `/api/v2/registration/students-by-subject-and-center?subjectId=${event.subjectId}&centerId=${event.centerId}`, { token: admin.accessToken });
      expect(available.status).toBe(200);
      const students = available.body.data.students as { studentId: number; registrationStatus: string }[];
      const pending = students.find((s) => s.registrationStatus === 'pending');
      const active = students.filter((s) => s.registrationStatus === 'active').map((s) => s.studentId);
      if (pending && active.length >= 2 && !active.includes(pending.studentId)) {
        chosen = { event, pending: pending.studentId, active };
        break;
      }
    }
    expect(chosen).toBeDefined();
    const { event, pending, active } = chosen!;
    const before = await call(gw, 'GET', `/api/v2/registration/students-assigned-to-event?eventId=${event.id}`, { token: admin.accessToken });
    expect(before.status).toBe(200);
    const assignedBefore = (before.body.data.students as { studentId: number }[]).map((s) => s.studentId).sort((a, b) => a - b);
    expect(assignedBefore).toEqual([...active].sort((a, b) => a - b));

    const [leaving, ...staying] = active;
    const assign = await call(gw, 'PUT', '/api/v2/registration/assign-students-to-event', {
      token: admin.accessToken,
      body: { eventId: event.id, employeeId: event.employeeId, subjectId: event.subjectId, centerId: event.centerId, idsStudents: [...staying, pending] },
    });
    expect(assign.status).toBe(200);
    expect(assign.body.status).toBe('success');
    expect(assign.body.data.rejectedStudents).toEqual([{ studentId: pending, reason: 'Registration status is pending' }]);
    expect(assign.body.data.removedStudents).toEqual([leaving]);
    expect([...assign.body.data.assignedStudents].sort((a: number, b: number) => a - b)).toEqual([...staying].sort((a, b) => a - b));

    const after = await call(gw, 'GET', `/api/v2/registration/students-assigned-to-event?eventId=${event.id}`, { token: admin.accessToken });
    const assignedAfter = (after.body.data.students as { studentId: number }[]).map((s) => s.studentId);
    expect(assignedAfter).not.toContain(pending);
    expect(assignedAfter).not.toContain(leaving);
    expect(assignedAfter).toHaveLength(staying.length);

    const missing = await call(gw, 'PUT', '/api/v2/registration/assign-students-to-event', { token: admin.accessToken, body: { idsStudents: [] } });
    expect(missing.status).toBe(400);
    expect(missing.body.status).toBe('error');
  });
});

describe('hours bank', () => {
  test('an admin adds completed and pending hours, edits and deletes a transaction; the teacher reads their own bank', async () => {
    const employeeId = teacher.user.employeeId!;
    expect(employeeId).toBeGreaterThan(0);
    const path = `/api/v2/hours-bank/${employeeId}`;

    const completed = await call(gw, 'POST', `${path}/completed`, { token: admin.accessToken, body: { time: '2h 30m', reason: 'extra class' } });
    expect(completed.status).toBe(200);
    expect(completed.body.data.totals).toMatchObject({ completedHours: '2h 30m', completedDecimal: 2.5, pendingDecimal: 0 });
    const pending = await call(gw, 'POST', `${path}/pending`, { token: admin.accessToken, body: { time: '1h' } });
    expect(pending.status).toBe(200);
    // Pending time first offsets completed time.
    expect(pending.body.data.totals).toMatchObject({ completedDecimal: 1.5, pendingDecimal: 0 });

    const edit = await call(gw, 'PUT', `/api/v2/hours-bank/transactions/${completed.body.data.transactionId}`, { token: admin.accessToken, body: { time: '3h' } });
    expect(edit.status).toBe(200);
    expect(edit.body.data.details).toMatchObject({ previousHours: '2h 30m', newHours: '3h', transactionType: 'COMPLETED' });
    expect(edit.body.data.totals).toMatchObject({ completedDecimal: 2, pendingDecimal: 0 });

    const removed = await call(gw, 'DELETE', `/api/v2/hours-bank/transactions/${edit.body.data.newTransactionId}`, { token: admin.accessToken });
    expect(removed.status).toBe(200);
    expect(removed.body.data.deletedTransaction).toMatchObject({ id: edit.body.data.newTransactionId, type: 'COMPLETED' });
    expect(removed.body.data.totals).toMatchObject({ completedDecimal: 0 });
    expect((await call(gw, 'DELETE', `/api/v2/hours-bank/transactions/${edit.body.data.newTransactionId}`, { token: admin.accessToken })).status).toBe(404);

    const own = await call(gw, 'GET', path, { token: teacher.accessToken });
    expect(own.status).toBe(200);
    expect(own.body.data.employeeId).toBe(employeeId);
    expect(own.body.data.totals).toEqual(removed.body.data.totals);
    const other = await call(gw, 'GET', `/api/v2/hours-bank/${employeeId + 1}`, { token: teacher.accessToken });
    expect(other.status).toBe(403);

    const bad = await call(gw, 'POST', `${path}/completed`, { token: admin.accessToken, body: { time: '1h 60m' } });
    expect(bad.status).toBe(400);
  });
});

describe('faults', () => {
  test('a service killed mid-run: the gateway answers 503 at once, then the restarted service answers with its data', async () => {
    const path = `/api/v2/hours-bank/${teacher.user.employeeId}`;
    const before = await call(gw, 'GET', path, { token: admin.accessToken });
    expect(before.status).toBe(200);
    const hoursBank = system.process('hours-bank');
    await hoursBank.kill('SIGKILL');

    const started = performance.now();
    const down = await call(gw, 'GET', path, { token: admin.accessToken });
    expect(down.status).toBe(503);
    expect(down.body.code).toBe('SERVICE_UNAVAILABLE');
    expect(performance.now() - started).toBeLessThan(2000);
    // The other services keep answering.
    expect((await call(gw, 'GET', '/api/v2/auth/me', { token: admin.accessToken })).status).toBe(200);

    await hoursBank.start();
    const back = await call(gw, 'GET', path, { token: admin.accessToken });
    expect(back.status).toBe(200);
    expect(back.body.data.totals).toEqual(before.body.data.totals);
  }, 120_000);

  test('the broker restarted: what was written while it was down is published afterwards, no event lost', async () => {
    expect(await eventually('outboxes drained before the restart', async () => {
      const counts = await outboxesDrained();
      return Object.values(counts).every((n) => n === 0) ? counts : undefined;
    })).toBeDefined();
    await system.rabbit.stop();

    // Writes still succeed (the events wait in each service's outbox).
    const hired = await call(gw, 'POST', '/api/v2/employees', { token: admin.accessToken, body: { name: 'Nadia', lastname: 'Broker', email: 'nadia.broker@academy.local', kind: 'teacher' } });
    expect(hired.status).toBe(201);
    const employeeId = hired.body.id ?? hired.body.data?.id;
    expect(employeeId).toBeGreaterThan(0);
    const hours = await call(gw, 'POST', `/api/v2/hours-bank/${teacher.user.employeeId}/completed`, { token: admin.accessToken, body: { time: '45m' } });
    expect(hours.status).toBe(200);
    const unsent = await outboxesDrained();
    expect(unsent.academic).toBeGreaterThan(0);
    expect(unsent['hours-bank']).toBeGreaterThan(0);

    await system.rabbit.start();
    // Every outbox empties, and the new employee reaches both replicas.
    await eventually('outboxes drained after the restart', async () => {
      const counts = await outboxesDrained();
      return Object.values(counts).every((n) => n === 0) ? counts : undefined;
    }, 60_000);
    for (const service of ['hours-bank', 'incidents'] as BackendName[]) {
      await eventually(`employee ${employeeId} in the ${service} replica`, async () => {
        const rows = await system.sql(service, 'select id from employees where id = $1', [employeeId]);
        return rows.length === 1 ? true : undefined;
      }, 30_000);
    }
    // The new employee's bank works through the gateway: hours-bank knows them.
    const first = await call(gw, 'POST', `/api/v2/hours-bank/${employeeId}/completed`, { token: admin.accessToken, body: { time: '1h' } });
    expect(first.status).toBe(200);
    expect(first.body.data.totals.completedDecimal).toBe(1);
  }, 150_000);
});
