import { describe, expect, test } from '@jest/globals';
import { startService } from '@academy/service';
import { academicService } from '../../src/service.ts';
import { sendAttendanceReminders as runAttendanceReminders } from '../../src/attendance/send-attendance-reminders.ts';
import { adminToken, useAttendance } from './attendance-support.ts';

describe('attendance.threshold-crossed: once per crossing, after 4 counted sessions', () => {
  const { clock, world: w } = useAttendance('2026-05-04T09:00:00Z');

  async function student() {
    clock.set('2026-05-04T09:00:00Z');
    const place = await w.place();
    const [studentId] = await w.students(1, place);
    const [guardian] = await w.f.query<{ id: number }>(
      `insert into guardians (name, lastname, email, active, created_at, updated_at) values ('Ana', 'Tutor', 'ana.tutor@example.com', true, now(), now()) returning id`,
    );
    await w.f.query(`update students set guardian_id = ? where id = ?`, [guardian!.id, studentId]);
    let day = 0;
    /** A class a day (from 20 April) with the student marked `status`. */
    const session = async (status: string) => {
      const start = new Date(Date.parse('2026-04-20T08:00:00Z') + day++ * 86_400_000);
      const eventId = await w.event(place, start.toISOString(), new Date(start.getTime() + 3_600_000).toISOString(), [studentId!]);
      expect((await w.take(eventId, { marks: [{ studentId, status }] }, adminToken)).status).toBe(200);
    };
    const warnings = () => w.outbox<{ studentId: number; percentage: number; sessions: number; guardian: unknown; admins: unknown[] }>('attendance.threshold-crossed', `(envelope->'data'->>'studentId')::int = ${studentId}`);
    return { place, studentId: studentId!, session, warnings };
  }

  test('below 80% with fewer than 4 sessions: no warning; at the 4th: one, with the guardian and the admins; not again while below', async () => {
    const s = await student();
    await w.f.query(`insert into users (email, password_hash, role, active, created_at, updated_at) values ('boss@example.com', 'x', 'admin', true, now(), now())`);
    await s.session('A');
    await s.session('P');
    await s.session('P');
    expect(await s.warnings()).toEqual([]);
    await s.session('P'); // 75% over 4
    const [warning] = await s.warnings();
    expect(warning).toMatchObject({ studentId: s.studentId, percentage: 75, sessions: 4, thresholdPercent: 80, guardian: { name: 'Ana Tutor', email: 'ana.tutor@example.com' } });
    // a user who chose no language carries locale null (notifications mails them in ACADEMY_LOCALE)
    expect(warning!.admins).toContainEqual({ name: 'boss@example.com', email: 'boss@example.com', locale: null });
    await s.session('A'); // 60%
    expect(await s.warnings()).toHaveLength(1);
  });

  test("an erased student's kept marks still count in their standing, but no warning names them (issue 35)", async () => {
    const s = await student();
    await w.f.query(`update students set name = 'Erased', lastname = '#' || id, guardian_id = null, erased_at = now() where id = ?`, [s.studentId]);
    for (const status of ['A', 'P', 'P', 'P']) await s.session(status);
    expect(await s.warnings()).toEqual([]);
    expect(await w.f.query(`select below from attendance_standings where student_id = ?`, [s.studentId])).toEqual([{ below: true }]);
  });

  test('excused sessions do not count toward the minimum, and late counts 0.8', async () => {
    const s = await student();
    for (const status of ['E', 'E', 'L', 'L', 'L']) await s.session(status); // 3 counted at 80%
    expect(await s.warnings()).toEqual([]);
    await s.session('L'); // 4 counted at 80%: not below
    expect(await s.warnings()).toEqual([]);
  });

  test('risen to the threshold and dropped again: a second warning', async () => {
    const s = await student();
    for (const status of ['A', 'P', 'P', 'P']) await s.session(status); // 75%
    for (const status of ['P', 'P']) await s.session(status); // 83%
    expect(await s.warnings()).toHaveLength(1);
    await s.session('A'); // 5 of 7: 71.43%
    await s.session('A'); // 62.5%, still below: nothing more
    expect((await s.warnings()).map((warning) => warning.percentage)).toEqual([75, 71.43]);
  });

  test('correcting a mark upward is a rise: no warning for it', async () => {
    const s = await student();
    for (const status of ['P', 'P', 'P', 'P']) await s.session(status);
    expect(await s.warnings()).toEqual([]);
  });
});

describe('the daily reminder of missing sheets (attendance.missing)', () => {
  // 17:59 and 18:00 in Madrid (CEST) on Monday 4 May.
  const { clock, service, world: w } = useAttendance('2026-05-04T15:59:00Z');

  test('from 18:00 local, one reminder per teacher per day, however many instances run the check', async () => {
    const place = await w.place();
    const students = await w.students(2, place);
    const first = await w.event(place, '2026-05-04T07:00:00Z', '2026-05-04T08:00:00Z', students);
    const second = await w.event(place, '2026-04-30T07:00:00Z', '2026-04-30T08:00:00Z', students);
    await w.event(place, '2026-04-20T07:00:00Z', '2026-04-20T08:00:00Z', students); // past the editing window: no reminder for it
    const done = await w.event(place, '2026-05-01T07:00:00Z', '2026-05-01T08:00:00Z', students);
    clock.set('2026-05-01T09:00:00Z');
    await w.take(done, { marks: [], markRest: 'P' }, place.token);
    const reminders = () => w.outbox<{ employeeId: number; day: string; missingCount: number; classes: { eventId: number; startsAt: string }[]; teacher: unknown }>('attendance.missing', `(envelope->'data'->>'employeeId')::int = ${place.employeeId}`);

    clock.set('2026-05-04T15:59:00Z');
    expect(await runAttendanceReminders(service().ctx)).toBe(0);
    expect(await reminders()).toEqual([]);

    clock.set('2026-05-04T16:00:00Z');
    const second_instance = await startService(academicService, service().ctx.config, { clock });
    try {
      const sent = await Promise.all([runAttendanceReminders(service().ctx), runAttendanceReminders(second_instance.ctx), runAttendanceReminders(service().ctx), runAttendanceReminders(second_instance.ctx)]);
      expect(sent.reduce((sum, n) => sum + n, 0)).toBe(1);
    } finally {
      await second_instance.stop();
    }
    const sentNow = await reminders();
    expect(sentNow).toHaveLength(1);
    expect(sentNow[0]).toMatchObject({ day: '2026-05-04', missingCount: 2, teacher: { name: 'Teacher Test', email: `teacher${place.employeeId}@example.com`, userId: place.userId } });
    expect(sentNow[0]!.classes.map((c) => c.eventId)).toEqual([second, first]);
    expect(sentNow[0]!.classes[0]).toMatchObject({ startsAt: '2026-04-30T09:00:00+02:00', endsAt: '2026-04-30T10:00:00+02:00' });

    clock.set('2026-05-04T21:59:00Z');
    await runAttendanceReminders(service().ctx);
    expect(await reminders()).toHaveLength(1);
    clock.set('2026-05-05T16:30:00Z'); // the next day: again, while the sheets are still missing
    await runAttendanceReminders(service().ctx);
    expect((await reminders()).map((r) => r.day)).toEqual(['2026-05-04', '2026-05-05']);
  });
});
