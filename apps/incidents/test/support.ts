import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { RunningService, StartOptions } from '@academy/service';
import { bearer, uniqueName, uniqueQueueName } from '@academy/testing';
import { serviceTestConfig, startTestService, stopTestService, useService } from '@academy/testing/harness';
import { ConfigSchema, type Config } from '../src/config.ts';
import { incidentsService } from '../src/service.ts';
import type { IncidentsContext } from '../src/shared/incidents-context.ts';

export type IncidentsService = RunningService<Config, IncidentsContext>;

/** The service's defaults with the test servers, a fresh database, its own queue, cache prefix and files folder; no scheduled runs. */
export async function incidentsTestConfig(overrides: Partial<Config> = {}): Promise<Config> {
  return {
    ...ConfigSchema.parse({}),
    ...(await serviceTestConfig(incidentsService, 'incidents')),
    REPLICAS_QUEUE: uniqueQueueName('incidents.replicas'),
    PRIVACY_QUEUE: uniqueQueueName('incidents.privacy'),
    CACHE_KEY_PREFIX: uniqueName('incidents_test'),
    FILES_DIR: mkdtempSync(path.join(os.tmpdir(), 'incidents-files-')),
    PRIVACY_FILES_DIR: mkdtempSync(path.join(os.tmpdir(), 'incidents-privacy-')),
    CHECK_INTERVAL_MS: 0,
    ...overrides,
  };
}

/** Starts the service; `options.clock` pins its "now" (`clockFrom` or `fixedClock` from `@academy/kit`). */
export async function startIncidents(overrides: Partial<Config> = {}, options: StartOptions = {}): Promise<IncidentsService> {
  return startTestService(incidentsService, await incidentsTestConfig(overrides), options);
}

/** Stops the service and removes its database, files and queues; `keepDatabase` when another instance still uses them. */
export const stopIncidents = (service: IncidentsService, options: { keepDatabase?: boolean } = {}) => stopTestService(service, options);

/** Starts the service before the tests of the enclosing `describe` and stops it after them. */
export const useIncidents = (overrides: Partial<Config> = {}, options: StartOptions = {}) => useService(() => startIncidents(overrides, options));

export async function sql<T = Record<string, unknown>>(service: IncidentsService, text: string, params: unknown[] = []): Promise<T[]> {
  return service.deps.db.query<T>(text, params);
}

let nextId = 1000;
/** A fresh id, so each test works on its own employee. */
export const freshId = () => nextId++;

/** An employee in the replica (active unless told), with a login `userId`, known to the service since `firstSeenAt` (long ago unless told). */
export async function seedEmployee(service: IncidentsService, options: { id?: number; userId?: number; active?: boolean; name?: string; firstSeenAt?: string } = {}) {
  const id = options.id ?? freshId();
  const userId = options.userId ?? id + 50_000;
  await sql(service, `insert into employees (id, user_id, name, email, active, deleted, source_version) values ($1, $2, $3, null, $4, false, now())`, [
    id,
    userId,
    options.name ?? `Employee ${id}`,
    options.active ?? true,
  ]);
  await sql(service, `insert into employee_first_seen (employee_id, first_seen_at) values ($1, $2::timestamptz)`, [id, options.firstSeenAt ?? '2000-01-01T00:00:00Z']);
  return { employeeId: id, userId, auth: bearer({ role: 'user', sub: String(userId), employeeId: id }) };
}

export const adminAuth = bearer({ role: 'admin', sub: '1' });

let nextClassId = 1;
/** A class of the timetable replica, as `calendar-event.created` leaves it; known since long ago unless told. */
export async function insertClass(service: IncidentsService, employeeId: number | null, startsAt: string, endsAt: string, options: { knownSince?: string } = {}) {
  const id = nextClassId++;
  await sql(
    service,
    `insert into calendar_events (id, subject_id, center_id, employee_id, starts_at, ends_at, deleted, known_since, source_version)
     values ($1, 1, 1, $2, $3::timestamptz, $4::timestamptz, false, $5::timestamptz, $5::timestamptz)`,
    [id, employeeId, startsAt, endsAt, options.knownSince ?? '2000-01-01T00:00:00Z'],
  );
  return id;
}

/** A time record written directly (for history, reports and the check). */
export async function insertRecord(service: IncidentsService, employeeId: number, clockInAt: string, clockOutAt: string | null) {
  const [row] = await sql<{ id: number }>(
    service,
    `insert into time_records (employee_id, clock_in_at, clock_out_at, clock_in_source, clock_out_source, created_at)
     values ($1, $2::timestamptz, $3::timestamptz, 'Web', case when $3::timestamptz is null then null else 'Web' end, now()) returning id`,
    [employeeId, clockInAt, clockOutAt],
  );
  return row!.id;
}

/** Events of the outbox, oldest first. */
export async function outboxEvents(service: IncidentsService, type?: string) {
  const rows = await sql<{ type: string; envelope: { data: Record<string, unknown> } }>(
    service,
    `select type, envelope from outbox where ($1::text is null or type = $1) order by id`,
    [type ?? null],
  );
  return rows.map((row) => ({ type: row.type, data: row.envelope.data }));
}
