// `npm run test:system`: every user journey through the gateway only, as a client would (plain
// fetch, socket.io-client), against the whole system started as `npm start` starts it
// (tools/system/harness.ts). Then faults: a service killed and restarted, a crashed service back by
// itself, the broker restarted.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import amqp from 'amqplib';
import pg from 'pg';
import { io, type Socket } from 'socket.io-client';
import { DEMO, PUSH_API_KEY, startTestSystem, type BackendName, type TestSystem } from './harness.ts';
import { call, callUntilDone, eventually, login, type Session } from './client.ts';
import { payslipEmployees } from './payslip-employees.ts';
import { demoPdf } from '../../apps/payslips/src/seed.ts';
import { absencesToCross, createClass, eventsOf, mailsSettled, mailsTo, pickStudent } from './attendance-world.ts';
import { say } from '../../apps/notifications/src/shared/i18n.ts';
import { addressesOf, eventIds, mailsOfDeliveries, mailsOfEvents, type CaughtMail } from './mailbox.ts';

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

/** A new employee (no login), once hours-bank has its replica: `firstHours` booked to their bank (which creates it). */
async function hireWithBank(name: string, firstHours: string): Promise<number> {
  const hired = await call(gw, 'POST', '/api/v2/employees', { token: admin.accessToken, body: { name, lastname: `Journey ${system.id}`, kind: 'teacher' } });
  expect(hired.status).toBe(201);
  const employeeId: number = hired.body.id ?? hired.body.data?.id;
  await eventually(`employee ${employeeId} booked in hours-bank`, async () => {
    const added = await call(gw, 'POST', `/api/v2/hours-bank/${employeeId}/completed`, { token: admin.accessToken, body: { time: firstHours } });
    return added.status === 200 ? added : undefined;
  }, 20_000, 250);
  return employeeId;
}

/** Every outbox row of every service has been published. */
async function outboxesDrained(): Promise<Record<BackendName, number>> {
  const counts = {} as Record<BackendName, number>;
  for (const service of ['academic', 'hours-bank', 'incidents', 'notifications', 'payslips'] as BackendName[]) {
    const [row] = await system.sql<{ n: number }>(service, 'select count(*)::int n from outbox where published_at is null');
    counts[service] = row.n;
  }
  return counts;
}

describe('sessions', () => {
  test('a user logs in, reads who they are, refreshes, logs out; the spent and the logged-out refresh tokens and the session\'s access tokens are refused', async () => {
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
    // The session ended: its access tokens are refused within the gateway's revocation check interval (2 s).
    const started = Date.now();
    await eventually('the access token refused after logout', async () => ((await call(gw, 'GET', '/api/v2/auth/me', { token: refreshed.body.accessToken })).status === 401 ? true : undefined), 10_000, 250);
    expect(Date.now() - started).toBeLessThan(8000);
    expect((await call(gw, 'GET', `/api/v2/hours-bank/${session.user.employeeId}`, { token: session.accessToken })).status).toBe(401);
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

describe('school courses and the student listing', () => {
  test('an admin lists the students with their renewal flag, adds a school course, which reaches hours-bank, and deletes it', async () => {
    const listing = await call(gw, 'GET', '/api/students/administrative?page=1&limit=5', { token: admin.accessToken });
    expect(listing.status).toBe(200);
    expect(listing.body.data).toHaveLength(5);
    // The seed's 240 students, and those other journeys add meanwhile (the bulk review hires five; the order is random).
    const { totalItems } = listing.body.meta as { totalItems: number };
    expect(totalItems).toBeGreaterThanOrEqual(240);
    expect(listing.body.meta).toMatchObject({ currentPage: 1, pageSize: 5, totalPages: Math.ceil(totalItems / 5) });
    expect(listing.body.data.every((s: { renews: unknown }) => typeof s.renews === 'boolean')).toBe(true);
    expect((await call(gw, 'GET', '/api/students/administrative', { token: teacher.accessToken })).status).toBe(403);

    const before = await call(gw, 'GET', '/api/v2/school-courses', { token: teacher.accessToken });
    expect(before.status).toBe(200);
    // An old course: the latest one (the default of every hours-bank operation) stays the same.
    const created = await call(gw, 'POST', '/api/v2/school-courses', { token: admin.accessToken, body: { name: '2019-2020', startDate: '2019-09-01', endDate: '2020-06-30' } });
    expect(created.status).toBe(201);
    const courseId = created.body.id ?? created.body.data?.id;
    const after = await call(gw, 'GET', '/api/v2/school-courses', { token: teacher.accessToken });
    expect(after.body.data).toHaveLength(before.body.data.length + 1);
    expect(after.body.latestSchoolCourseId).toBe(before.body.latestSchoolCourseId);
    // Hours can be booked on it once hours-bank has its replica.
    await eventually('the course in the hours-bank replica', async () => {
      const added = await call(gw, 'POST', `/api/v2/hours-bank/${teacher.user.employeeId}/completed`, { token: admin.accessToken, body: { time: '15m', schoolCourseId: courseId } });
      return added.status === 200 ? added : undefined;
    }, 20_000, 250);

    expect((await call(gw, 'POST', '/api/v2/school-courses', { token: teacher.accessToken, body: { name: 'x', startDate: '2019-09-01', endDate: '2020-06-30' } })).status).toBe(403);
    const removed = await call(gw, 'DELETE', `/api/v2/school-courses/${courseId}`, { token: admin.accessToken });
    expect(removed.status).toBe(200);
    const last = await call(gw, 'GET', '/api/v2/school-courses', { token: teacher.accessToken });
    expect(last.body.data).toHaveLength(before.body.data.length);
  });
});

describe('hours bank', () => {
  test('an admin adds completed and pending hours, edits and deletes a transaction; the teacher reads their own bank', async () => {
    // teacher5's bank is this journey's alone (no other journey books hours to them): its totals start empty.
    const owner = await login(gw, DEMO.teacher(5));
    const employeeId = owner.user.employeeId!;
    expect(employeeId).toBeGreaterThan(0);
    const path = `/api/v2/hours-bank/${employeeId}`;
    const start = await call(gw, 'GET', path, { token: owner.accessToken });
    expect([200, 404]).toContain(start.status);
    expect(start.status === 404 ? 'no bank yet' : start.body.data.totals).toEqual(start.status === 404 ? 'no bank yet' : expect.objectContaining({ completedDecimal: 0, pendingDecimal: 0 }));

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

    const own = await call(gw, 'GET', path, { token: owner.accessToken });
    expect(own.status).toBe(200);
    expect(own.body.data.employeeId).toBe(employeeId);
    expect(own.body.data.totals).toEqual(removed.body.data.totals);
    const other = await call(gw, 'GET', `/api/v2/hours-bank/${teacher.user.employeeId}`, { token: owner.accessToken });
    expect(other.status).toBe(403);

    const bad = await call(gw, 'POST', `${path}/completed`, { token: admin.accessToken, body: { time: '1h 60m' } });
    expect(bad.status).toBe(400);
  });
});

describe('retrying a write', () => {
  test('the upstream times out on a slow write; the client retries with its Idempotency-Key and the bank counts the hours once', async () => {
    // A gateway that gives up on an upstream after 1.5 s, and a write slowed past it: a psql-like connection holds the bank's row.
    const impatient = await system.addGateway(0, { UPSTREAM_TIMEOUT_MS: '1500' });
    // An employee of this journey's own, whose bank exists (15 min booked): no other journey's hours count here.
    const user = { employeeId: await hireWithBank('Rita', '15m') };
    const path = `/api/v2/hours-bank/${user.employeeId}`;
    const balance = async () =>
      (await system.sql<{ n: number }>('hours-bank', 'select sum(completed_minutes - pending_minutes)::int n from hours_banks where employee_id = $1', [user.employeeId]))[0]!.n;
    const before = await balance();
    const rowsBefore = await system.sql<{ n: number }>('hours-bank', 'select count(*)::int n from hours_transactions t join hours_banks b on b.id = t.hours_bank_id where b.employee_id = $1', [user.employeeId]);

    const holder = new pg.Client({ connectionString: system.databaseUrls['hours-bank'] });
    await holder.connect();
    try {
      await holder.query('begin');
      await holder.query('select 1 from hours_banks where employee_id = $1 for update', [user.employeeId]);
      const key = randomUUID();
      const attempts: number[] = [];
      const write = callUntilDone(impatient.url, 'POST', `${path}/completed`, { token: admin.accessToken, body: { time: '1h' }, idempotencyKey: key, attempts });
      // The first attempt times out at the gateway (504), the retries find it still running (409) until the row is free.
      await eventually('a timed-out attempt and a retry refused while the first runs', async () => (attempts.includes(504) && attempts.includes(409) ? true : undefined), 20_000, 100);
      await holder.query('commit');
      const done = await write;

      expect(done.status).toBe(200);
      expect(done.headers.get('idempotent-replayed')).toBe('true');
      expect(attempts[0]).toBe(504);
      expect((await balance()) - before).toBe(60);
      const rowsAfter = await system.sql<{ n: number }>('hours-bank', 'select count(*)::int n from hours_transactions t join hours_banks b on b.id = t.hours_bank_id where b.employee_id = $1', [user.employeeId]);
      expect(rowsAfter[0]!.n - rowsBefore[0]!.n).toBe(1);
      // A retry later still answers the first outcome, and still counts nothing more.
      const late = await call(impatient.url, 'POST', `${path}/completed`, { token: admin.accessToken, body: { time: '1h' }, idempotencyKey: key });
      expect(late.status).toBe(200);
      expect(late.body).toEqual(done.body);
      expect((await balance()) - before).toBe(60);
    } finally {
      await holder.query('rollback').catch(() => undefined);
      await holder.end();
      await impatient.kill('SIGTERM');
    }
  }, 90_000);
});

describe('content blocks', () => {
  test('a teacher closes a student block, an admin approves it; the next block opens and the e-mails reach the teacher and the student and/or guardian', async () => {
    // A class of the teacher's and one of its students, as the teacher's client would find them.
    const events = await call(gw, 'GET', `/api/v2/calendar-events?employeeId=${teacher.user.employeeId}&limit=100`, { token: admin.accessToken });
    expect(events.status).toBe(200);
    type Grade = { studentBlockId: number; blockId: number; position: number; status: string };
    let pick: { studentId: number; open: Grade; next: Grade } | undefined;
    for (const event of events.body.data as { id: number; subjectId: number }[]) {
      const assigned = await call(gw, 'GET', `/api/v2/registration/students-assigned-to-event?eventId=${event.id}`, { token: teacher.accessToken });
      expect(assigned.status).toBe(200);
      for (const { studentId } of assigned.body.data.students as { studentId: number }[]) {
        // A student whose open block has a next one.
        const grades = await call(gw, 'GET', `/api/v2/blocks/grades/${studentId}/${event.subjectId}`, { token: teacher.accessToken });
        expect(grades.status).toBe(200);
        const blocks = grades.body.blocks as Grade[];
        const open = blocks.find((b) => b.status === 'open');
        const next = open && blocks.find((b) => b.position === open.position + 1);
        if (open && next) {
          pick = { studentId, open, next };
          break;
        }
      }
      if (pick) break;
    }
    expect(pick).toBeDefined();
    const { studentId, open: first, next: second } = pick!;
    const student = (await call(gw, 'GET', `/api/v2/students/${studentId}`, { token: admin.accessToken })).body;
    const guardian = student.guardianId ? (await call(gw, 'GET', `/api/v2/guardians/${student.guardianId}`, { token: admin.accessToken })).body : null;
    // The teacher; the guardian when there is one; the student when their e-mail is a real one.
    const expected = [teacher.user.email, guardian?.email, student.email && !student.email.endsWith('.invalid') ? student.email : null].filter(Boolean).sort();

    const closed = await call(gw, 'POST', `/api/v2/blocks/${first.blockId}/close`, { token: teacher.accessToken, body: { studentId, grade: 8.5 } });
    expect(closed.status).toBe(200);
    expect(closed.body).toMatchObject({ ok: true, studentBlockId: first.studentBlockId, blockId: first.blockId, studentId, previousStatus: 'open', newStatus: 'pending' });
    // The teacher may not review.
    expect((await call(gw, 'POST', `/api/v2/blocks/student-block/${closed.body.studentBlockId}/review`, { token: teacher.accessToken, body: { action: 'approve' } })).status).toBe(401);

    const pending = await call(gw, 'GET', `/api/v2/blocks/pending?studentId=${studentId}`, { token: admin.accessToken });
    expect(pending.status).toBe(200);
    expect(pending.body.byStudent[0].blocks.map((b: { blockId: number }) => b.blockId)).toContain(first.blockId);

    const approved = await call(gw, 'POST', `/api/v2/blocks/student-block/${closed.body.studentBlockId}/review`, { token: admin.accessToken, body: { action: 'approve' } });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ ok: true, previousStatus: 'pending', newStatus: 'closed', action: 'approve', nextBlockUnlocked: true });
    const again = await call(gw, 'POST', `/api/v2/blocks/student-block/${closed.body.studentBlockId}/review`, { token: admin.accessToken, body: { action: 'approve' } });
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('INVALID_STATUS_FOR_REVIEW');

    // Read back from the mail catcher's API: the mails of this approval's event (the seeded teacher may get others, e.g. the daily attendance reminder).
    const approvals = await eventIds(system, 'academic', 'block.approved', 'studentBlockId', [closed.body.studentBlockId]);
    expect(approvals).toHaveLength(1);
    const { deliveries, mails } = await mailsOfEvents(system, approvals, expected.length);
    expect(addressesOf(mails)).toEqual(expected.map((address) => address.toLowerCase()).sort());
    // No more than those (one delivery per recipient, whatever redeliveries happened).
    await new Promise((r) => setTimeout(r, 1500));
    expect(addressesOf(await mailsOfDeliveries(system, deliveries))).toEqual(addressesOf(mails));

    // The next block is open for the teacher to close.
    const next = await call(gw, 'POST', `/api/v2/blocks/${second.blockId}/close`, { token: teacher.accessToken, body: { studentId } });
    expect(next.status).toBe(200);
    expect(next.body.newStatus).toBe('pending');
  }, 60_000);
});

describe('bulk review', () => {
  test("an admin approves five blocks in one request; each student's mail arrives once, in Spanish, with their name", async () => {
    // A subject, a center and five students of this journey's own (no teacher, no guardian): whatever
    // reaches these addresses is this journey's. The course is the latest, as a new registration's is.
    const tag = system.id.toLowerCase();
    const subject = await call(gw, 'POST', '/api/v2/subjects', { token: admin.accessToken, body: { name: `Bulk review ${tag}`, blocks: ['Fracciones', 'Decimales'] } });
    expect(subject.status).toBe(201);
    const [firstBlock, secondBlock] = subject.body.blocks as { id: number; name: string; position: number }[];
    const center = await call(gw, 'POST', '/api/v2/centers', { token: admin.accessToken, body: { name: `Bulk review ${tag}` } });
    expect(center.status).toBe(201);
    const courses = await call(gw, 'GET', '/api/v2/school-courses', { token: admin.accessToken });
    const schoolCourseId: number = courses.body.latestSchoolCourseId;
    const students: { id: number; name: string; email: string; studentBlockId: number }[] = [];
    for (const [n, name] of ['Lucía', 'Mateo', 'Irene', 'Hugo', 'Valeria'].entries()) {
      const email = `bulk.${n + 1}.${tag}@academy.local`;
      const created = await call(gw, 'POST', '/api/v2/students', { token: admin.accessToken, body: { name, lastname: `Bulk ${tag}`, email } });
      expect(created.status).toBe(201);
      const registered = await call(gw, 'POST', '/api/v2/registrations', {
        token: admin.accessToken,
        body: { studentId: created.body.id, schoolCourseId, subjectId: subject.body.id, centerId: center.body.id, status: 'active', employeeId: null },
      });
      expect(registered.status).toBe(201);
      const closed = await call(gw, 'POST', `/api/v2/blocks/${firstBlock!.id}/close`, { token: admin.accessToken, body: { studentId: created.body.id } });
      expect(closed.status).toBe(200);
      expect(closed.body).toMatchObject({ ok: true, blockId: firstBlock!.id, newStatus: 'pending' });
      students.push({ id: created.body.id, name: `${name} Bulk ${tag}`, email, studentBlockId: closed.body.studentBlockId });
    }

    // One request, an Idempotency-Key (call sends a fresh one on every write), the items not in id order: the answer keeps the request's order.
    const order = [...students].reverse();
    const reviewed = await call(gw, 'POST', '/api/v2/blocks/review', {
      token: admin.accessToken,
      body: { items: order.map((student) => ({ studentBlockId: student.studentBlockId, action: 'approve' })) },
      idempotencyKey: randomUUID(),
    });
    expect(reviewed.status).toBe(200);
    expect(reviewed.body).toMatchObject({ reviewed: 5, failed: 0 });
    expect(reviewed.body.results).toEqual(order.map((student) => ({ studentBlockId: student.studentBlockId, ok: true })));

    // One block.approved each; the deliveries of those events are sent, then a settle in which a duplicate would land.
    const approvals = await eventIds(system, 'academic', 'block.approved', 'studentBlockId', students.map((student) => student.studentBlockId));
    expect(approvals).toHaveLength(5);
    const { deliveries } = await mailsOfEvents(system, approvals, 5);
    expect(deliveries.map((delivery) => delivery.recipient).sort()).toEqual(students.map((student) => student.email).sort());
    await mailsSettled(system);
    await new Promise((r) => setTimeout(r, 2000));

    // Read back from the SMTP catcher by address (only this journey writes to them): one mail each, in
    // the academy's language (es: the students have no login that chose another), worded by the es resources.
    const es = { locale: 'es', timeZone: 'Europe/Madrid' } as const;
    for (const student of students) {
      const mails = await mailsTo(system, student.email);
      expect(mails).toHaveLength(1);
      const [mail] = mails;
      expect(mail!.subject).toBe(say(es, 'blockApproved.subjectStudent', { block: firstBlock!.name }));
      expect(mail!.text).toContain(say(es, 'common.greeting', { name: student.name }));
      expect(mail!.text).toContain(say(es, 'blockApproved.approvedStudent', { block: firstBlock!.name, subject: subject.body.name }));
      expect(mail!.text).toContain(say(es, 'blockApproved.nextStudent', { next: secondBlock!.name }));
      // Spanish, not the English wording of the same keys.
      expect(mail!.subject).not.toBe(say({ ...es, locale: 'en' }, 'blockApproved.subjectStudent', { block: firstBlock!.name }));
    }
    // Each approved once: the next block is open for every student.
    for (const student of students) {
      const grades = await call(gw, 'GET', `/api/v2/blocks/grades/${student.id}/${subject.body.id}`, { token: admin.accessToken });
      expect(grades.body.blocks.map((block: { status: string }) => block.status)).toEqual(['closed', 'open']);
    }
  }, 90_000);
});

describe('attendance', () => {
  test("the teacher takes attendance of their classes through the gateway; a student falls under the threshold and the guardian's e-mail says so, once", async () => {
    const session = await login(gw, DEMO.teacher(2));
    const employeeId = session.user.employeeId!;
    const pick = await pickStudent(system, gw, admin, employeeId);
    const place = { subjectId: pick.subjectId, centerId: pick.centerId, employeeId };
    const absences = await absencesToCross(system, pick);
    const classes = [];
    for (let n = 0; n < absences; n++) classes.push(await createClass(gw, admin, place, n, [pick.studentId]));

    for (const [n, eventId] of classes.entries()) {
      const sheet = await call(gw, 'GET', `/api/v2/attendance/events/${eventId}`, { token: session.accessToken });
      expect(sheet.status).toBe(200);
      expect(sheet.body.unmarked).toEqual([pick.studentId]);
      const taken = await call(gw, 'PUT', `/api/v2/attendance/events/${eventId}`, { token: session.accessToken, body: { marks: [], markRest: 'A' } });
      expect(taken.status).toBe(200);
      expect(taken.body).toMatchObject({ changed: 1, unmarked: [], taken: { byUserId: session.user.id } });
      expect(taken.body.students).toEqual([expect.objectContaining({ studentId: pick.studentId, status: 'A' })]);
      // Under the threshold only after the last absence.
      expect(await eventsOf(system, 'attendance.threshold-crossed', 'studentId', pick.studentId)).toHaveLength(n === absences - 1 ? 1 : 0);
    }
    const summary = await call(gw, 'GET', `/api/v2/attendance/students/${pick.studentId}?subjectId=${pick.subjectId}`, { token: admin.accessToken });
    expect(summary.status).toBe(200);
    expect(summary.body.subjects[0].counts.A).toBeGreaterThanOrEqual(absences);
    // Saving the same marks again changes nothing and warns no one again.
    expect((await call(gw, 'PUT', `/api/v2/attendance/events/${classes.at(-1)}`, { token: session.accessToken, body: { marks: [{ studentId: pick.studentId, status: 'A' }] } })).body.changed).toBe(0);

    // The warning's own mails (the guardian may hold the seed's warnings about the same student in other subjects).
    const [warning] = await eventsOf(system, 'attendance.threshold-crossed', 'studentId', pick.studentId);
    const toGuardian = (mails: CaughtMail[]) => mails.filter((m) => m.to.some((to) => to.address.toLowerCase() === pick.guardianEmail.toLowerCase()));
    const { deliveries, mails } = await mailsOfEvents(system, [warning!.id]);
    const [mail] = toGuardian(mails);
    expect(`${mail!.subject} ${mail!.text}`).toContain(pick.studentName);
    await mailsSettled(system);
    expect(toGuardian(await mailsOfDeliveries(system, deliveries))).toHaveLength(1);
    expect(await eventsOf(system, 'attendance.threshold-crossed', 'studentId', pick.studentId)).toHaveLength(1);
  }, 90_000);
});

describe('incidents', () => {
  test("a clock-in over an open record opens an incident, and the employee's socket.io client receives incident_notification", async () => {
    const employee = await login(gw, DEMO.teacher(3));
    const socket: Socket = io(gw, { path: '/socket.io', transports: ['websocket'], auth: { token: employee.accessToken }, reconnection: false });
    try {
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', () => resolve());
        socket.once('connect_error', reject);
      });
      const notifications: { incidentId: number; employeeId: number; change: string; status: string }[] = [];
      socket.on('incident_notification', (n) => notifications.push(n));

      const clockIn = await call(gw, 'POST', '/api/v2/timerecord/clock-in', { token: employee.accessToken, body: { source: 'App', deviceId: 'phone-1' } });
      expect(clockIn.status).toBe(201);
      const open = await call(gw, 'GET', '/api/v2/timerecord/open', { token: employee.accessToken });
      expect(open.body.hasOpenRecord).toBe(true);

      const twice = await call(gw, 'POST', '/api/v2/timerecord/clock-in', { token: employee.accessToken, body: { source: 'Web' } });
      expect(twice.status).toBe(409);
      expect(twice.body.code).toBe('TIME_RECORD_ALREADY_OPEN');
      const incidentId = twice.body.details.incidentId as number;
      expect(incidentId).toBeGreaterThan(0);

      const notification = await eventually('incident_notification', async () => notifications.find((n) => n.incidentId === incidentId), 20_000, 100);
      expect(notification).toMatchObject({ incidentId, employeeId: employee.user.employeeId, status: 'open' });

      const mine = await call(gw, 'GET', '/api/v2/incident/my?status=open', { token: employee.accessToken });
      expect(mine.status).toBe(200);
      expect(JSON.stringify(mine.body)).toContain(`"id":${incidentId}`);
      const detail = await call(gw, 'GET', `/api/v2/incident/${incidentId}`, { token: employee.accessToken });
      expect(detail.status).toBe(200);
      // Another employee cannot read it.
      expect([403, 404]).toContain((await call(gw, 'GET', `/api/v2/incident/${incidentId}`, { token: teacher.accessToken })).status);

      const clockOut = await call(gw, 'POST', '/api/v2/timerecord/clock-out', { token: employee.accessToken, body: { source: 'App' } });
      expect(clockOut.status).toBe(200);
    } finally {
      socket.close();
    }
  }, 60_000);
});

describe('push notifications', () => {
  test('a user registers a device token, an internal caller sends a push to them, the token is removed at logout', async () => {
    const user = await login(gw, DEMO.teacher(4));
    const registered = await call(gw, 'POST', '/api/v2/notifications/token', {
      token: user.accessToken,
      body: { deviceId: 'pixel-8-system', token: `fcm-token-${system.id}`, platform: 'android' },
    });
    expect([200, 201]).toContain(registered.status);
    expect(registered.body.success).toBe(true);

    const refused = await call(gw, 'POST', '/api/v2/push-notifications/send', { headers: { 'x-api-key': 'wrong-key-wrong-key' }, body: { userIds: [user.user.id], body: 'Hi' } });
    expect(refused.status).toBe(401);
    const sent = await call(gw, 'POST', '/api/v2/push-notifications/send', {
      headers: { 'x-api-key': PUSH_API_KEY },
      body: { userIds: [user.user.id, admin.user.id], title: 'Timetable', body: 'Your Monday class moved to 10:00', priority: 'high', data: { screen: 'calendar' } },
    });
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ success: true, requestedUserIds: [user.user.id, admin.user.id], tokensCount: 1, successCount: 1, errorCount: 0 });

    const removed = await call(gw, 'DELETE', '/api/v2/notifications/token/pixel-8-system', { token: user.accessToken });
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({ success: true, message: 'Device token removed successfully' });
    const gone = await call(gw, 'DELETE', '/api/v2/notifications/token/pixel-8-system', { token: user.accessToken });
    expect(gone.status).toBe(404);
    expect(gone.body).toMatchObject({ success: false, message: 'Device not found' });
    const none = await call(gw, 'POST', '/api/v2/push-notifications/send', { headers: { 'x-api-key': PUSH_API_KEY }, body: { userIds: [user.user.id], body: 'Anyone?' } });
    expect(none.body).toMatchObject({ success: true, tokensCount: 0 });
  });
});

describe('payslips', () => {
  test("an admin uploads the month's combined PDF, checks the matches and publishes; the teacher lists and downloads theirs and is told by e-mail", async () => {
    const employeeId = teacher.user.employeeId!;
    // The teachers reach the payslips replica from academic's seed (their tax ids as digests; printed from academic's).
    const [me] = await payslipEmployees(system, [employeeId]);
    const period = { periodStart: '2026-02-01', periodEnd: '2026-02-28', label: 'Nómina febrero 2026' };
    const pdf = await demoPdf([{ employee: me!, period }, { employee: null, period }]);
    const form = new FormData();
    for (const [name, value] of Object.entries({ ...period, matchBy: 'taxId' })) form.set(name, value);
    form.set('file', new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }), 'nominas-febrero.pdf');
    const uploaded = await fetch(`${gw}/api/v2/payslips/batches`, { method: 'POST', headers: { authorization: `Bearer ${admin.accessToken}` }, body: form });
    expect(uploaded.status).toBe(202);
    const batchId = ((await uploaded.json()) as { data: { id: number } }).data.id;
    const ready = await eventually('the batch read', async () => {
      const batch = await call(gw, 'GET', `/api/v2/payslips/batches/${batchId}`, { token: admin.accessToken });
      return batch.body.data.status === 'reading' ? undefined : batch.body.data;
    });
    expect(ready.status).toBe('ready');
    expect(ready.matches.map((m: { employeeId: number }) => m.employeeId)).toEqual([employeeId]);
    expect(ready.unmatchedPages.map((p: { page: number }) => p.page)).toEqual([2]);

    const published = await call(gw, 'POST', `/api/v2/payslips/batches/${batchId}/publish`, { token: admin.accessToken });
    expect(published.status).toBe(200);
    const payslipId = published.body.data.matches[0].payslips[0].payslipId;

    const mine = await call(gw, 'GET', '/api/v2/payslips/my', { token: teacher.accessToken });
    expect(mine.body.data.find((p: { id: number }) => p.id === payslipId)).toMatchObject({ label: period.label, periodStart: period.periodStart, periodEnd: period.periodEnd });
    const file = await fetch(`${gw}/api/v2/payslips/${payslipId}/file`, { headers: { authorization: `Bearer ${teacher.accessToken}` } });
    expect([file.status, file.headers.get('content-type'), file.headers.get('cache-control')]).toEqual([200, 'application/pdf', 'private, no-store']);
    expect(Buffer.from(await file.arrayBuffer()).subarray(0, 5).toString('latin1')).toBe('%PDF-');

    // Read back from the mail catcher: the payslip's one e-mail, to the teacher, without the payslip attached.
    const events = await eventIds(system, 'payslips', 'payslip.published', 'payslipId', [payslipId]);
    expect(events).toHaveLength(1);
    const { mails } = await mailsOfEvents(system, events);
    expect(addressesOf(mails)).toEqual([teacher.user.email.toLowerCase()]);
    expect(mails[0]!.attachments ?? []).toEqual([]);
  });
});

describe('faults', () => {
  test('a service killed mid-run: the gateway answers 503 at once, then the restarted service answers with its data', async () => {
    // A bank of this journey's own, with data in it.
    const path = `/api/v2/hours-bank/${await hireWithBank('Kim', '30m')}`;
    const before = await call(gw, 'GET', path, { token: admin.accessToken });
    expect(before.status).toBe(200);
    expect(before.body.data.totals).toMatchObject({ completedDecimal: 0.5, pendingDecimal: 0 });
    const hoursBank = system.process('hours-bank');
    await hoursBank.kill('SIGKILL');

    const started = performance.now();
    const down = await call(gw, 'GET', path, { token: admin.accessToken });
    expect(down.status).toBe(503);
    expect(down.body.code).toBe('SERVICE_UNAVAILABLE');
    // At once (connection refused), not after the 10 s upstream timeout.
    expect(performance.now() - started).toBeLessThan(5000);
    // The other services keep answering.
    expect((await call(gw, 'GET', '/api/v2/auth/me', { token: admin.accessToken })).status).toBe(200);

    await hoursBank.start();
    const back = await call(gw, 'GET', path, { token: admin.accessToken });
    expect(back.status).toBe(200);
    expect(back.body.data.totals).toEqual(before.body.data.totals);
  }, 120_000);

  test('a service that crashes (SIGKILL) is started again by its supervisor within seconds, is ready again by itself, and handles what was published while it was down', async () => {
    const incidents = system.process('incidents');
    const { pid, restarts } = incidents;
    expect((await call(gw, 'GET', '/readyz')).status).toBe(200);
    await incidents.crash('SIGKILL');
    const crashedAt = performance.now();
    // The supervisor spawns it again after its first backoff (1 s); how long the new process takes to be ready is the machine's load.
    const respawned = eventually('incidents spawned again by its supervisor', async () => (incidents.pid !== undefined && incidents.pid !== pid ? performance.now() - crashedAt : undefined), 15_000, 50);
    respawned.catch(() => undefined); // awaited below
    expect((await call(gw, 'GET', '/readyz')).status).toBe(503);

    // An employee hired meanwhile: academic publishes the event, and it waits in incidents' queue with no consumer.
    const hired = await call(gw, 'POST', '/api/v2/employees', { token: admin.accessToken, body: { name: 'Carla', lastname: 'Crash', email: 'carla.crash@academy.local', kind: 'teacher' } });
    expect(hired.status).toBe(201);
    const employeeId = hired.body.id ?? hired.body.data?.id;
    const broker = await amqp.connect(system.rabbit.url);
    try {
      const channel = await broker.createChannel();
      // A failing check rejects in the test; the emitters' own 'error' events would only end the run.
      for (const emitter of [broker, channel]) emitter.on('error', () => undefined);
      const waiting = await eventually('the event waiting in incidents.replicas', async () => {
        const queue = await channel.checkQueue('incidents.replicas');
        return queue.messageCount > 0 ? queue : undefined;
      }, 10_000, 50);
      expect(waiting.consumerCount).toBe(0);
    } finally {
      await broker.close();
    }

    // Nobody starts it: its supervisor does, and the gateway finds it ready again.
    await eventually('incidents ready again through the gateway', async () => ((await call(gw, 'GET', '/readyz')).status === 200 ? true : undefined), 60_000, 100);
    const downMs = performance.now() - crashedAt;
    const respawnMs = await respawned;
    process.stderr.write(`[system] incidents spawned again ${(respawnMs / 1000).toFixed(1)} s and ready again ${(downMs / 1000).toFixed(1)} s after SIGKILL\n`);
    expect(respawnMs).toBeLessThan(5000);
    expect(incidents.restarts).toBe(restarts + 1);
    expect(incidents.pid).not.toBe(pid);
    expect((await call(gw, 'GET', '/api/v2/incident/my', { token: teacher.accessToken })).status).toBe(200);

    // Its queue caught up: the employee hired while it was down reached its replica.
    await eventually(`employee ${employeeId} in the incidents replica`, async () => {
      const rows = await system.sql('incidents', 'select id from employees where id = $1', [employeeId]);
      return rows.length === 1 ? true : undefined;
    }, 30_000);
  }, 120_000);

  test('the broker restarted: what was written while it was down is published afterwards, no event lost', async () => {
    // A bank of this journey's own to write to while the broker is down.
    const booked = await hireWithBank('Bruno', '15m');
    // Up to a relay lease (the confirm timeout + 15 s, 30 s): rows claimed by a relay that an earlier
    // journey killed (the crash journey SIGKILLs incidents) wait for its lease to end (order is random).
    let before: Record<BackendName, number> | undefined;
    expect(await eventually('outboxes drained before the restart', async () => {
      before = await outboxesDrained();
      return Object.values(before).every((n) => n === 0) ? before : undefined;
    }, 60_000).catch((error: Error) => {
      throw new Error(`${error.message}; unpublished: ${JSON.stringify(before)}\n${system.logTails(30)}`);
    })).toBeDefined();
    await system.rabbit.stop();

    // Writes still succeed (the events wait in each service's outbox).
    const hired = await call(gw, 'POST', '/api/v2/employees', { token: admin.accessToken, body: { name: 'Nadia', lastname: 'Broker', email: 'nadia.broker@academy.local', kind: 'teacher' } });
    expect(hired.status).toBe(201);
    const employeeId = hired.body.id ?? hired.body.data?.id;
    expect(employeeId).toBeGreaterThan(0);
    const hours = await call(gw, 'POST', `/api/v2/hours-bank/${booked}/completed`, { token: admin.accessToken, body: { time: '45m' } });
    expect(hours.status).toBe(200);
    expect(hours.body.data.totals.completedDecimal).toBe(1);
    const unsent = await outboxesDrained();
    expect(unsent.academic).toBeGreaterThan(0);
    expect(unsent['hours-bank']).toBeGreaterThan(0);

    await system.rabbit.start();
    // Every outbox empties, and the new employee reaches both replicas.
    let left: Record<BackendName, number> | undefined;
    await eventually('outboxes drained after the restart', async () => {
      left = await outboxesDrained();
      return Object.values(left).every((n) => n === 0) ? left : undefined;
    }, 60_000).catch((error: Error) => {
      throw new Error(`${error.message}; unpublished: ${JSON.stringify(left)}\n${system.logTails(30)}`);
    });
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
