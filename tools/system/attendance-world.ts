// Attendance through the gateway, for the journeys and test:replicas: a seeded student of a
// teacher's (with a guardian, not under the warning threshold), and classes of that teacher on
// yesterday's timetable with that student alone, as an admin's client creates them. Yesterday's:
// the teacher may still take them, and incidents never counts a day before it knew the class.
import { expect } from '@jest/globals';
import { call, eventually, type Session } from './client.ts';
import type { TestSystem } from './harness.ts';

export interface AttendancePick {
  subjectId: number;
  centerId: number;
  studentId: number;
  studentName: string;
  guardianEmail: string;
}

interface SeededEvent {
  id: number;
  subjectId: number;
  centerId: number;
}

/** The first active student of one of the teacher's subjects who has a guardian and is not under the threshold there. */
export async function pickStudent(system: TestSystem, gateway: string, admin: Session, employeeId: number, skip: number[] = []): Promise<AttendancePick> {
  const events = await call(gateway, 'GET', `/api/v2/calendar-events?employeeId=${employeeId}&limit=100`, { token: admin.accessToken });
  expect(events.status).toBe(200);
  for (const event of events.body.data as SeededEvent[]) {
    const available = await call(gateway, 'GET', `/api/v2/registration/students-by-subject-and-center?subjectId=${event.subjectId}&centerId=${event.centerId}`, { token: admin.accessToken });
    expect(available.status).toBe(200);
    for (const candidate of available.body.data.students as { studentId: number; registrationStatus: string }[]) {
      if (candidate.registrationStatus !== 'active' || skip.includes(candidate.studentId)) continue;
      const student = (await call(gateway, 'GET', `/api/v2/students/${candidate.studentId}`, { token: admin.accessToken })).body;
      if (!student.guardianId) continue;
      const [standing] = await system.sql<{ below: boolean }>('academic', 'select below from attendance_standings where student_id = $1 and subject_id = $2', [candidate.studentId, event.subjectId]);
      if (standing?.below) continue;
      const guardian = (await call(gateway, 'GET', `/api/v2/guardians/${student.guardianId}`, { token: admin.accessToken })).body;
      return { subjectId: event.subjectId, centerId: event.centerId, studentId: candidate.studentId, studentName: `${student.name} ${student.lastname}`, guardianEmail: guardian.email };
    }
  }
  throw new Error(`no seeded student of employee ${employeeId} with a guardian`);
}

/** A class of the teacher yesterday (the `n`th of the day, an hour long) with `studentIds` assigned; answers its id. */
export async function createClass(gateway: string, admin: Session, place: { subjectId: number; centerId: number; employeeId: number }, n: number, studentIds: number[]): Promise<number> {
  const startsAt = new Date(Date.now() - 24 * 3600_000 - (n + 1) * 3600_000);
  const created = await call(gateway, 'POST', '/api/v2/calendar-events', {
    token: admin.accessToken,
    body: { title: `Attendance journey ${n}`, ...place, startsAt: startsAt.toISOString(), endsAt: new Date(startsAt.getTime() + 3600_000).toISOString() },
  });
  expect(created.status).toBe(201);
  const eventId: number = created.body.id ?? created.body.data?.id;
  const assigned = await call(gateway, 'PUT', '/api/v2/registration/assign-students-to-event', { token: admin.accessToken, body: { eventId, ...place, idsStudents: studentIds } });
  expect(assigned.status).toBe(200);
  expect(assigned.body.data.assignedStudents).toEqual(studentIds);
  return eventId;
}

/**
 * How many absences in new classes take the student under `threshold`% (after at least
 * `minSessions` counted sessions) in the subject, from their marks of the current school course.
 */
export async function absencesToCross(system: TestSystem, pick: AttendancePick, threshold = 80, minSessions = 4): Promise<number> {
  const [row] = await system.sql<{ counted: number; weighted: number }>(
    'academic',
    `select count(st.weight)::int as counted, coalesce(sum(st.weight), 0)::float8 as weighted
       from attendance_marks m join calendar_events e on e.id = m.event_id join attendance_statuses st on st.code = m.status
      where m.student_id = $1 and e.subject_id = $2
        and e.starts_at >= (select c.start_date::timestamp at time zone 'Europe/Madrid' from school_courses c order by c.start_date desc, c.id desc limit 1)`,
    [pick.studentId, pick.subjectId],
  );
  let absences = 1;
  while (row!.counted + absences < minSessions || (100 * row!.weighted) / (row!.counted + absences) >= threshold) absences++;
  return absences;
}

/** The mails the catcher holds for `address`. */
export async function mailsTo(system: TestSystem, address: string): Promise<{ subject: string; text?: string }[]> {
  const all = (await call(system.mail.api, 'GET', '/email')).body as { to: { address: string }[]; subject: string; text?: string }[];
  return all.filter((mail) => mail.to.some((to) => to.address.toLowerCase() === address.toLowerCase()));
}

/** The events (id and data) in academic's outbox of `type` whose data matches `field` = `value`. */
export async function eventsOf(system: TestSystem, type: string, field: string, value: number): Promise<{ id: string; data: Record<string, unknown> }[]> {
  return system.sql<{ id: string; data: Record<string, unknown> }>('academic', `select envelope->>'id' as id, envelope->'data' as data from outbox where type = $1 and (envelope->'data'->>$2)::int = $3 order by outbox.id`, [type, field, value]);
}

/** No e-mail delivery of notifications is still pending or being sent, so no late mail lands in a later test. */
export async function mailsSettled(system: TestSystem): Promise<void> {
  await eventually('every e-mail delivery sent', async () => {
    const [row] = await system.sql<{ open: number }>('notifications', "select count(*)::int as open from deliveries where channel = 'email' and status in ('pending', 'sending')");
    return row!.open === 0 ? true : undefined;
  }, 30_000);
}
