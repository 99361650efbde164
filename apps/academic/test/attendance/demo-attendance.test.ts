import { describe, expect, test } from '@jest/globals';
import { seedDemoData } from '../../src/seed.ts';
import { dayOf } from '../../src/attendance/academy-days.ts';
import { adminToken, teacherToken, useAttendance } from './attendance-support.ts';

// The seed follows its clock: on any day, the past classes have sheets, one student is under the
// threshold, and teacher1 has a class today to take and last week's classes to correct (the README's tour).
describe.each([
  ['a Wednesday noon', '2026-11-25T12:00:00Z'],
  ['a Monday five minutes after midnight in Madrid', '2027-01-03T23:05:00Z'],
  ['the Sunday of the spring DST change, 03:30 CEST', '2027-03-28T01:30:00Z'],
  ['a Saturday one minute before midnight in Madrid', '2027-10-30T21:59:00Z'],
])('demo attendance seeded on %s', (_name, now) => {
  const { world: w, service } = useAttendance(now);
  const timeZone = 'Europe/Madrid';

  test('past classes have sheets, one student is under the threshold, and teacher1 takes today’s class and corrects the Tuesday one (the tour)', async () => {
    const seeded = await seedDemoData(service().ctx.orm, { now: new Date(now), timeZone });
    expect(seeded.counts!.calendarEvents).toBe(15 * 5 + 1);
    expect(seeded.counts!.attendanceSheets).toBeGreaterThan(15 * 5 - 5);
    expect(seeded.counts!.underAttendanceThreshold).toBe(1);
    const [{ missing }] = await w.f.query<{ missing: number }>(
      `select count(*)::int as missing from calendar_events e where e.ends_at <= ? and exists (select 1 from event_students es where es.event_id = e.id)
          and not exists (select 1 from attendance_sheets s where s.event_id = e.id)`,
      [now],
    );
    expect(missing).toBe(0);
    const today = dayOf(new Date(now), timeZone);
    const report = await w.api().get(`/api/v2/attendance/report?to=${today}&below=80`).set(adminToken);
    expect(report.status).toBe(200);
    expect(report.body.data).toHaveLength(1);
    expect(report.body.data[0].sessions).toBe(5);
    const warnings = await w.outbox<{ studentId: number; guardian: unknown }>('attendance.threshold-crossed');
    expect(warnings.map((warning) => warning.studentId)).toEqual([report.body.data[0].studentId]);
    expect(warnings[0]!.guardian).not.toBeNull();
    expect(await w.outbox('calendar-event.created')).toHaveLength(seeded.counts!.calendarEvents);

    // The weekly classes: within the last seven days before today, each on its weekday (Monday to Friday).
    const weekly = await w.f.query<{ id: number; day: string; weekday: number }>(
      `select id, (starts_at at time zone ?)::date::text as day, extract(isodow from starts_at at time zone ?)::int as weekday from calendar_events where id <= 15 order by id`,
      [timeZone, timeZone],
    );
    for (const event of weekly) {
      expect(event.day < today).toBe(true);
      expect(Date.parse(today) - Date.parse(event.day)).toBeLessThanOrEqual(7 * 86_400_000);
    }
    expect(weekly.find((event) => event.id === 15)!.weekday).toBe(2);

    // The tour: teacher1 takes today's class (event 76, Historia · Centro Online), student 39 absent, the rest present.
    const [teacher1] = await w.f.query<{ userId: number; employeeId: number }>(`select id as "userId", employee_id as "employeeId" from users where email = 'teacher1@academy.local'`);
    const token = teacherToken(teacher1!.employeeId, teacher1!.userId);
    const [todayClass] = await w.f.query<{ id: number; day: string; started: boolean; sheets: number }>(
      `select id, (starts_at at time zone ?)::date::text as day, starts_at <= ?::timestamptz as started, (select count(*)::int from attendance_sheets s where s.event_id = e.id) as sheets
         from calendar_events e order by id desc limit 1`,
      [timeZone, now],
    );
    expect(todayClass).toEqual({ id: 76, day: today, started: true, sheets: 0 });
    const taken = await w.take(76, { marks: [{ studentId: 39, status: 'A', remark: 'ill' }], markRest: 'P' }, token);
    expect(taken.status).toBe(200);
    expect(taken.body.changed).toBe(taken.body.students.length);
    const summary = await w.api().get('/api/v2/attendance/students/39?subjectId=5').set(adminToken);
    expect(summary.body.subjects).toEqual([expect.objectContaining({ subjectId: 5, sessions: 6, percentage: 80 })]);
    // The Tuesday class (event 15) is still the teacher's to correct: 39 absent there too drops under 80 and warns the admins.
    const corrected = await w.take(15, { marks: [{ studentId: 39, status: 'A', remark: 'ill' }] }, token);
    expect(corrected.status).toBe(200);
    expect(corrected.body.changed).toBe(1);
    const after = await w.api().get('/api/v2/attendance/students/39?subjectId=5').set(adminToken);
    expect(after.body.subjects[0].percentage).toBe(63.33);
    expect((await w.outbox<{ studentId: number }>('attendance.threshold-crossed')).map((warning) => warning.studentId)).toContain(39);
  });
});
