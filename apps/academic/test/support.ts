// Test helpers: the academic service on port 0 over a fresh database, and fixtures written
// straight to the database (fast, and independent of the routes under test).
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RunningService, StartOptions } from '@academy/service';
import { bearer, uniqueQueueName } from '@academy/testing';
import { serviceTestConfig, startTestService, useService } from '@academy/testing/harness';
import { academicService } from '../src/service.ts';
import { SettingsSchema, type Config } from '../src/config.ts';

export const admin = bearer({ role: 'admin', sub: '1' });
export const user = bearer({ role: 'user', sub: '2', employeeId: 1 });

/**
 * The service over a fresh database and queues of its own (its periodic attendance check off);
 * `settings` over the test config, `options.clock` to pin its clock. The queues as the other services' test configs
 * name theirs: with the default names, two files at once (Jest workers) shared them, and one file's stop deleted them
 * under the other's consumers (404 NOT_FOUND on its retry queue, the other file failed).
 */
export async function startAcademic(settings: Partial<Config> = {}, options: StartOptions = {}): Promise<RunningService<Config>> {
  const config = { ...(await serviceTestConfig(academicService, 'academic', SettingsSchema)), PRIVACY_REQUESTS_QUEUE: uniqueQueueName('academic.privacy-requests'), PRIVACY_QUEUE: uniqueQueueName('academic.privacy') };
  return startTestService(academicService, { ...config, ATTENDANCE_CHECK_INTERVAL_MS: 0, ...settings }, options);
}

/** The service around the describe's tests (`useService`), and fixtures bound to it. */
export function useAcademic(): { service: () => RunningService; f: Fixtures } {
  const service = useService(startAcademic);
  return { service, f: fixtures(service) };
}

export const em = (service: RunningService): EntityManager => service.ctx.orm.em.fork() as EntityManager;

async function insertOne(service: () => RunningService, sql: string, params: unknown[]): Promise<number> {
  const [row] = await em(service()).execute<{ id: number }[]>(sql, params);
  return row.id;
}

let sequence = 0;
const unique = (prefix: string) => `${prefix} ${++sequence}-${Math.random().toString(36).slice(2, 8)}`;

export type Fixtures = ReturnType<typeof fixtures>;

/** Fixtures over the service `service()` returns when they are called. */
export const fixtures = (service: () => RunningService) => ({
  course: (startDate: string, name = unique('Course')) =>
    insertOne(service, `insert into school_courses (name, start_date, end_date, created_at) values (?, ?::date, ?::date + interval '300 days', now()) returning id`, [name, startDate, startDate]),
  subject: (name = unique('Subject')) => insertOne(service, `insert into subjects (name, created_at, updated_at) values (?, now(), now()) returning id`, [name]),
  center: (name = unique('Center')) => insertOne(service, `insert into centers (name, created_at, updated_at) values (?, now(), now()) returning id`, [name]),
  employee: (name = 'Teacher') =>
    insertOne(service, `insert into employees (name, lastname, email, kind, created_at, updated_at) values (?, 'Test', null, 'teacher', now(), now()) returning id`, [name]),
  student: (name = 'Student', lastname = 'Test', createdAt: Date = new Date(), status = 'active') =>
    insertOne(service, `insert into students (name, lastname, status, created_at, updated_at) values (?, ?, ?, ?, now()) returning id`, [name, lastname, status, createdAt]),
  registration: (r: { studentId: number; courseId: number; subjectId: number; centerId: number; status?: string; employeeId?: number | null }) =>
    insertOne(
      service,
      `insert into registrations (student_id, school_course_id, subject_id, center_id, status, employee_id, created_at, updated_at) values (?, ?, ?, ?, ?, ?, now(), now()) returning id`,
      [r.studentId, r.courseId, r.subjectId, r.centerId, r.status ?? 'active', r.employeeId ?? null],
    ),
  event: (e: { subjectId: number; centerId: number; employeeId?: number | null }) =>
    insertOne(
      service,
      `insert into calendar_events (subject_id, center_id, employee_id, starts_at, ends_at, created_at, updated_at) values (?, ?, ?, now(), now() + interval '1 hour', now(), now()) returning id`,
      [e.subjectId, e.centerId, e.employeeId ?? null],
    ),
  query: <T>(sql: string, params: unknown[] = []) => em(service()).execute<T[]>(sql, params),
});
