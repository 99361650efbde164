// The academic service on port 0 with a pinned clock (ATTENDANCE_* settings as given), and a small
// world of classes: a subject, a center, a teacher, students, classes at given instants.
import request from 'supertest';
import { fixedClock } from '@academy/kit';
import type { RunningService } from '@academy/service';
import { bearer } from '@academy/testing';
import { useService } from '@academy/testing/harness';
import type { Config } from '../../src/config.ts';
import { em, fixtures, startAcademic } from '../support.ts';

export const ADMIN_USER_ID = 9001;
export const adminToken = bearer({ role: 'admin', sub: String(ADMIN_USER_ID) });
export const teacherToken = (employeeId: number, userId = 5000 + employeeId) => bearer({ role: 'user', sub: String(userId), employeeId });

/** Hooks around a describe: the service with its own pinned clock (at `start` until a test sets it). */
export function useAttendance(start: string, settings: Partial<Config> = {}) {
  const clock = fixedClock(start);
  const service = useService(() => startAcademic(settings, { clock }));
  return { clock, service, world: attendanceWorld(service) };
}

export function attendanceWorld(service: () => RunningService<Config>) {
  const f = fixtures(service);
  const api = () => request(service().app);
  const world = {
    f,
    api,
    /** A subject, a center and a teacher (with a login `userId`, e-mail `teacher<N>@example.com`). */
    async place() {
      const subjectId = await f.subject();
      const centerId = await f.center();
      const employeeId = await f.employee('Teacher');
      const [user] = await f.query<{ id: number }>(
        `insert into users (email, password_hash, role, employee_id, active, created_at, updated_at) values (?, 'x', 'user', ?, true, now(), now()) returning id`,
        [`teacher${employeeId}@example.com`, employeeId],
      );
      await f.query(`update employees set email = ?, user_id = ? where id = ?`, [`teacher${employeeId}@example.com`, user!.id, employeeId]);
      const courseId = (await f.query<{ id: number }>(`select id from school_courses order by start_date desc, id desc limit 1`))[0]?.id ?? (await f.course('2020-09-01'));
      return { subjectId, centerId, employeeId, userId: user!.id, courseId, token: teacherToken(employeeId, user!.id) };
    },
    async students(count: number, place: { subjectId: number; centerId: number; employeeId: number; courseId: number }) {
      const ids: number[] = [];
      for (let i = 0; i < count; i++) {
        const studentId = await f.student(`Student${i}`, `L${String(i).padStart(3, '0')}`);
        await f.registration({ studentId, courseId: place.courseId, subjectId: place.subjectId, centerId: place.centerId, employeeId: place.employeeId });
        ids.push(studentId);
      }
      return ids;
    },
    /** A class from `startsAt` to `endsAt` with its roster. */
    async event(place: { subjectId: number; centerId: number; employeeId: number | null }, startsAt: string, endsAt: string, studentIds: number[]) {
      const [row] = await f.query<{ id: number }>(
        `insert into calendar_events (subject_id, center_id, employee_id, starts_at, ends_at, created_at, updated_at) values (?, ?, ?, ?::timestamptz, ?::timestamptz, now(), now()) returning id`,
        [place.subjectId, place.centerId, place.employeeId, startsAt, endsAt],
      );
      for (const studentId of studentIds) await f.query(`insert into event_students (event_id, student_id, assigned_at) values (?, ?, now())`, [row!.id, studentId]);
      return row!.id;
    },
    take: (eventId: number, body: unknown, token: Record<string, string>) => api().put(`/api/v2/attendance/events/${eventId}`).set(token).send(body as object),
    outbox: async <T = Record<string, unknown>>(type: string, where = 'true') =>
      (await f.query<{ envelope: { data: T } }>(`select envelope from outbox where type = ? and ${where} order by id`, [type])).map((row) => row.envelope.data),
    marks: (eventId: number) => f.query<{ studentId: number; status: string; minutesLate: number | null; remark: string | null }>(
      `select student_id as "studentId", status, minutes_late as "minutesLate", remark from attendance_marks where event_id = ? order by student_id`,
      [eventId],
    ),
    history: (eventId: number) => f.query<{ studentId: number; fromStatus: string | null; toStatus: string; by: number }>(
      `select student_id as "studentId", from_status as "fromStatus", to_status as "toStatus", changed_by_user_id as by from attendance_mark_changes where event_id = ? order by id`,
      [eventId],
    ),
  };
  return world;
}

export { em };
