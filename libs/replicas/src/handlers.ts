import type { EntityManager } from '@mikro-orm/postgresql';
import type { EventHandler, EventHandlers } from '@academy/messaging';

/**
 * Replica writes are upserts by id that apply only when the event is not older than what the row
 * already reflects (`source_version` = the event's `occurredAt`), so redelivered or out-of-order
 * events are harmless. A deletion keeps a tombstone, so a late upsert of before it does not bring
 * the row back.
 */
export async function run(em: EntityManager, sql: string, params: unknown[]): Promise<void> {
  await em.getConnection().execute(sql, params, 'run', em.getTransactionContext());
}

/**
 * Version 3 carries `taxIdDigest` and `payrollCode` (null: none); version 1 lacks both, and the row
 * then keeps the ones it has.
 */
export const onEmployeeUpserted: EventHandler<'employee.upserted'> = async (em, event) => {
  const { id, userId, name, email, active, taxIdDigest, payrollCode } = event.data;
  await run(
    em,
    `insert into employees (id, user_id, name, email, tax_id_digest, payroll_code, active, deleted, source_version) values (?, ?, ?, ?, ?, ?, ?, false, ?)
     on conflict (id) do update set user_id = excluded.user_id, name = excluded.name, email = excluded.email, active = excluded.active,
       tax_id_digest = case when ? then excluded.tax_id_digest else employees.tax_id_digest end,
       payroll_code = case when ? then excluded.payroll_code else employees.payroll_code end,
       deleted = false, source_version = excluded.source_version
     where employees.source_version <= excluded.source_version`,
    [id, userId, name, email, taxIdDigest ?? null, payrollCode ?? null, active, event.occurredAt, taxIdDigest !== undefined, payrollCode !== undefined],
  );
};

export const onEmployeeDeleted: EventHandler<'employee.deleted'> = async (em, event) => {
  await run(
    em,
    `insert into employees (id, active, deleted, source_version) values (?, false, true, ?)
     on conflict (id) do update set active = false, deleted = true, source_version = excluded.source_version
     where employees.source_version <= excluded.source_version`,
    [event.data.id, event.occurredAt],
  );
};

export const onSchoolCourseCreated: EventHandler<'school-course.created'> = async (em, event) => {
  const { id, name, startDate, endDate } = event.data;
  await run(
    em,
    `insert into school_courses (id, name, start_date, end_date, deleted, source_version) values (?, ?, ?, ?, false, ?)
     on conflict (id) do update set name = excluded.name, start_date = excluded.start_date, end_date = excluded.end_date,
       deleted = false, source_version = excluded.source_version
     where school_courses.source_version <= excluded.source_version`,
    [id, name, startDate, endDate, event.occurredAt],
  );
};

/**
 * A `*.deleted` event as a tombstone in `table` (a replica table with `id`, `deleted` and
 * `source_version`): the row is kept, marked deleted, unless a newer event already wrote it; a
 * deletion that arrives before its row is created is remembered the same way.
 */
export const tombstone =
  <T extends 'school-course.deleted' | 'calendar-event.deleted'>(table: 'school_courses' | 'calendar_events'): EventHandler<T> =>
  async (em, event) => {
    await run(
      em,
      `insert into ${table} (id, deleted, source_version) values (?, true, ?)
       on conflict (id) do update set deleted = true, source_version = excluded.source_version
       where ${table}.source_version <= excluded.source_version`,
      [event.data.id, event.occurredAt],
    );
  };

export const onSchoolCourseDeleted = tombstone<'school-course.deleted'>('school_courses');

/** The four academic events a replica follows. */
export const replicaHandlers: EventHandlers = {
  'employee.upserted': onEmployeeUpserted,
  'employee.deleted': onEmployeeDeleted,
  'school-course.created': onSchoolCourseCreated,
  'school-course.deleted': onSchoolCourseDeleted,
};
