import { defineEntity, p } from '@mikro-orm/postgresql';
import type { EventHandler, EventHandlers } from '@academy/messaging';
import { onEmployeeUpserted, replicaHandlers, run, tombstone } from './handlers.ts';

/**
 * Local copy of academic's timetable: one row per class (calendar event), fed by `calendar-event.*`
 * events with the employees' rule (upsert if newer, deletion as a tombstone). A class has no
 * cancelled state: a cancelled class is deleted. `knownSince` is the `occurredAt` of the event that
 * gave the class its current teacher and start, so a class entered or moved after it began is known
 * to have been unknown then.
 */
export const CalendarEventReplica = defineEntity({
  name: 'CalendarEventReplica',
  tableName: 'calendar_events',
  properties: {
    id: p.integer().primary().autoincrement(false),
    subjectId: p.integer().nullable(),
    centerId: p.integer().nullable(),
    /** The teacher; null while the class has none. */
    employeeId: p.integer().nullable(),
    startsAt: p.datetime().nullable(),
    endsAt: p.datetime().nullable(),
    deleted: p.boolean().default(false),
    knownSince: p.datetime().nullable(),
    sourceVersion: p.datetime(),
  },
  indexes: [{ properties: ['startsAt'] }, { properties: ['employeeId', 'startsAt'] }],
});

/**
 * When the replica first heard of each employee (the earliest `occurredAt` of their
 * `employee.upserted` events), so a rule never judges a day before the employee was known.
 */
export const EmployeeFirstSeen = defineEntity({
  name: 'EmployeeFirstSeen',
  tableName: 'employee_first_seen',
  properties: {
    employeeId: p.integer().primary().autoincrement(false),
    firstSeenAt: p.datetime(),
  },
});

/** The timetable tables, for a service that follows the timetable (with `replicaEntities`). */
export const timetableReplicaEntities = [CalendarEventReplica, EmployeeFirstSeen];

export const onCalendarEventChanged: EventHandler<'calendar-event.created' | 'calendar-event.updated'> = async (em, event) => {
  const { id, subjectId, centerId, employeeId, startsAt, endsAt } = event.data;
  await run(
    em,
    `insert into calendar_events (id, subject_id, center_id, employee_id, starts_at, ends_at, deleted, known_since, source_version) values (?, ?, ?, ?, ?, ?, false, ?, ?)
     on conflict (id) do update set subject_id = excluded.subject_id, center_id = excluded.center_id, employee_id = excluded.employee_id,
       starts_at = excluded.starts_at, ends_at = excluded.ends_at, deleted = false,
       known_since = case when calendar_events.deleted or calendar_events.employee_id is distinct from excluded.employee_id
         or calendar_events.starts_at is distinct from excluded.starts_at then excluded.known_since else calendar_events.known_since end,
       source_version = excluded.source_version
     where calendar_events.source_version <= excluded.source_version`,
    [id, subjectId, centerId, employeeId, startsAt, endsAt, event.occurredAt, event.occurredAt],
  );
};

export const onCalendarEventDeleted = tombstone<'calendar-event.deleted'>('calendar_events');

/** The employees replica's upsert, and the first time this employee was heard of (the earliest event wins, whatever the order). */
export const onEmployeeUpsertedFirstSeen: EventHandler<'employee.upserted'> = async (em, event) => {
  await onEmployeeUpserted(em, event);
  await run(
    em,
    `insert into employee_first_seen (employee_id, first_seen_at) values (?, ?)
     on conflict (employee_id) do update set first_seen_at = least(employee_first_seen.first_seen_at, excluded.first_seen_at)`,
    [event.data.id, event.occurredAt],
  );
};

/** `replicaHandlers` plus the timetable: the three `calendar-event.*` types and the employees' first sighting. */
export const timetableReplicaHandlers: EventHandlers = {
  ...replicaHandlers,
  'employee.upserted': onEmployeeUpsertedFirstSeen,
  'calendar-event.created': onCalendarEventChanged,
  'calendar-event.updated': onCalendarEventChanged,
  'calendar-event.deleted': onCalendarEventDeleted,
};
