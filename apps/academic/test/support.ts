// Test helpers: the academic service on port 0 over a fresh database, and fixtures written
// straight to the database (fast, and independent of the routes under test).
import { afterAll, beforeAll } from '@jest/globals';
import type { EntityManager } from '@mikro-orm/postgresql';
import { startService, type RunningService } from '@academy/service';
import { bearer, dropTestDatabase, testConfig } from '@academy/testing';
import { academicService } from '../src/service.ts';
import { SettingsSchema } from '../src/config.ts';

export const admin = bearer({ role: 'admin', sub: '1' });
export const user = bearer({ role: 'user', sub: '2', employeeId: 1 });

export async function startAcademic(): Promise<RunningService> {
  const service = await startService(academicService, { ...(await testConfig('academic', SettingsSchema)), ATTENDANCE_CHECK_INTERVAL_MS: 0 });
  // Wait for the broker: closing it while its first connection is still opening leaks that connection (libs/messaging).
  await service.ctx.broker.start();
  return service;
}

export async function stopAcademic(service: RunningService): Promise<void> {
  await service.stop();
  await dropTestDatabase(service.ctx.config.DATABASE_URL);
}

/**
 * Registers the hooks that start the service before the describe's tests and stop it (dropping its
 * database) after them; returns the running service and fixtures bound to it.
 */
export function useAcademic(): { service: () => RunningService; f: Fixtures } {
  let running: RunningService | undefined;
  beforeAll(async () => {
    running = await startAcademic();
  });
  afterAll(async () => {
    if (running) await stopAcademic(running);
  });
  const service = () => {
    if (!running) throw new Error('the academic service is not running (useAcademic hooks run around the tests only)');
    return running;
  };
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
