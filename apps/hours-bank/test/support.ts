import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { RunningService, StartOptions } from '@academy/service';
import { uniqueQueueName } from '@academy/testing';
import { serviceTestConfig, startTestService, stopTestService, useService } from '@academy/testing/harness';
import { ConfigSchema, type Config } from '../src/config.ts';
import { hoursBankService } from '../src/service.ts';

/** The service on a fresh database, its own exchange, replicas and privacy queues and export folder (test files run at once); `options.clock` pins its clock. */
export async function startHoursBank(options: StartOptions = {}): Promise<RunningService<Config>> {
  const config: Config = {
    ...ConfigSchema.parse({}),
    ...(await serviceTestConfig(hoursBankService, 'hours_bank')),
    REPLICAS_QUEUE: uniqueQueueName('hours-bank.replicas'),
    PRIVACY_QUEUE: uniqueQueueName('hours-bank.privacy'),
    PRIVACY_FILES_DIR: mkdtempSync(path.join(os.tmpdir(), 'hours-bank-privacy-')),
  };
  return startTestService(hoursBankService, config, options);
}

/** Starts the service before the tests of the enclosing `describe` and stops it after them; returns a getter. */
export const useHoursBank = (options: StartOptions = {}) => useService(() => startHoursBank(options));

/** Stops the service and removes its database, queues and exchange from the shared test servers. */
export const stopHoursBank = (service: RunningService<Config>) => stopTestService(service);

export async function sql<T = Record<string, unknown>>(service: RunningService, text: string, params: unknown[] = []): Promise<T[]> {
  return service.ctx.orm.em.getConnection().execute<T[]>(text, params, 'all');
}

let nextId = 1000;
/** A fresh id, so each test works on its own employee and course. */
export const freshId = () => nextId++;

export async function seedEmployee(service: RunningService, id = freshId()): Promise<number> {
  await sql(service, `insert into employees (id, user_id, name, email, active, deleted, source_version) values (?, null, ?, null, true, false, now())`, [id, `Employee ${id}`]);
  return id;
}

/** A course starting on `startDate`; the one with the latest start is the current course. */
export async function seedSchoolCourse(service: RunningService, startDate = '2025-09-01', id = freshId()): Promise<number> {
  const endYear = Number(startDate.slice(0, 4)) + 1;
  await sql(service, `insert into school_courses (id, name, start_date, end_date, deleted, source_version) values (?, ?, ?, ?, false, now())`, [
    id,
    `Course ${id}`,
    startDate,
    `${endYear}-06-30`,
  ]);
  return id;
}

export interface BankRow {
  pending_minutes: number;
  completed_minutes: number;
}

export async function bankRow(service: RunningService, employeeId: number, schoolCourseId: number): Promise<BankRow | undefined> {
  const [row] = await sql<BankRow>(service, 'select pending_minutes, completed_minutes from hours_banks where employee_id = ? and school_course_id = ?', [
    employeeId,
    schoolCourseId,
  ]);
  return row;
}
