// The personal data request's SQL: an employee's incidents (with their threads and files) and daily time records, read, erased and restricted.
import type { EntityManager } from '@mikro-orm/postgresql';
import { isoSql } from '../shared/db.ts';

const rows = <T>(em: EntityManager, sql: string, params: unknown[]) => em.getConnection().execute<T[]>(sql, params, 'all', em.getTransactionContext());

export interface IncidentFileRow {
  id: number;
  incidentId: number;
  messageId: number;
  fileName: string;
  contentType: string;
  sizeBytes: number;
  storageKey: string;
  createdAt: string;
}

/** Every incident of the employee (deleted ones too), oldest first, each with its thread; one query. */
export async function employeeIncidents(em: EntityManager, employeeId: number) {
  return rows<Record<string, unknown> & { id: number }>(
    em,
    `select i.id, i.kind, i.severity, i.status, i.description, i.source, i.device_id as "deviceId", i.time_record_id as "timeRecordId", to_char(i.day, 'YYYY-MM-DD') as day,
            ${isoSql('i.proposed_end_at')} as "proposedEndAt", ${isoSql('i.created_at')} as "createdAt", ${isoSql('i.updated_at')} as "updatedAt",
            ${isoSql('i.closed_at')} as "closedAt", i.closed_by as "closedBy", ${isoSql('i.deleted_at')} as "deletedAt", i.deleted_by as "deletedBy",
            coalesce((select json_agg(json_build_object('id', m.id, 'authorRole', m.author_role, 'authorUserId', m.author_user_id, 'text', m.body, 'createdAt', ${isoSql('m.created_at')}) order by m.id)
                      from incident_messages m where m.incident_id = i.id), '[]'::json) as messages
       from incidents i where i.employee_id = ? order by i.id`,
    [employeeId],
  );
}

/** The files attached to the employee's incidents, oldest first. */
export async function employeeIncidentFiles(em: EntityManager, employeeId: number): Promise<IncidentFileRow[]> {
  return rows<IncidentFileRow>(
    em,
    `select f.id, f.incident_id as "incidentId", f.message_id as "messageId", f.file_name as "fileName", f.content_type as "contentType", f.size_bytes as "sizeBytes",
            f.storage_key as "storageKey", ${isoSql('f.created_at')} as "createdAt"
       from incident_files f join incidents i on i.id = f.incident_id where i.employee_id = ? order by f.id`,
    [employeeId],
  );
}

/**
 * Locks the employee's replica row until the erasure commits, before it deletes or restricts anything:
 * a clock-in key-share locks it, so one running now is restricted with the rest and one after it finds
 * the employee deleted.
 */
async function lockEmployee(em: EntityManager, employeeId: number): Promise<void> {
  await rows(em, `select 1 from employees where id = ? for update`, [employeeId]);
}

/** Deletes the employee's incidents with their messages and files' rows; answers the counts and the files' storage keys. */
export async function deleteEmployeeIncidents(em: EntityManager, employeeId: number): Promise<{ incidents: number; messages: number; storageKeys: string[] }> {
  await lockEmployee(em, employeeId);
  const files = await rows<{ storageKey: string }>(em, `delete from incident_files where incident_id in (select id from incidents where employee_id = ?) returning storage_key as "storageKey"`, [employeeId]);
  const messages = await rows<{ id: number }>(em, `delete from incident_messages where incident_id in (select id from incidents where employee_id = ?) returning id`, [employeeId]);
  const incidents = await rows<{ id: number }>(em, `delete from incidents where employee_id = ? returning id`, [employeeId]);
  return { incidents: incidents.length, messages: messages.length, storageKeys: files.map((file) => file.storageKey) };
}

/** Every daily time record of the employee, oldest first. */
export async function employeeTimeRecords(em: EntityManager, employeeId: number) {
  return rows<Record<string, unknown>>(
    em,
    `select id, ${isoSql('clock_in_at')} as "clockInAt", ${isoSql('clock_out_at')} as "clockOutAt", clock_in_source as "clockInSource", clock_in_device_id as "clockInDeviceId",
            clock_out_source as "clockOutSource", clock_out_device_id as "clockOutDeviceId", ${isoSql('restricted_at')} as "restrictedAt"
       from time_records where employee_id = ? order by clock_in_at, id`,
    [employeeId],
  );
}

/**
 * Restricts the employee's time records from `now` (kept for the law: start and end only, the devices
 * forgotten); answers how many there are, how many device ids went, and the day of the latest clock-in.
 */
export async function restrictEmployeeTimeRecords(em: EntityManager, employeeId: number, now: Date, timeZone: string): Promise<{ count: number; devicesForgotten: number; lastDay: string | null }> {
  await lockEmployee(em, employeeId);
  const [devices] = await rows<{ n: number }>(
    em,
    `with forgotten as (update time_records set clock_in_device_id = null, clock_out_device_id = null
                         where employee_id = ? and (clock_in_device_id is not null or clock_out_device_id is not null) returning 1)
     select count(*)::int as n from forgotten`,
    [employeeId],
  );
  await rows(em, `update time_records set restricted_at = ? where employee_id = ? and restricted_at is null returning 1`, [now, employeeId]);
  const [kept] = await rows<{ count: number; lastDay: string | null }>(
    em,
    `select count(*)::int as count, to_char(max(clock_in_at at time zone ?), 'YYYY-MM-DD') as "lastDay" from time_records where employee_id = ?`,
    [timeZone, employeeId],
  );
  return { count: kept!.count, devicesForgotten: devices!.n, lastDay: kept!.lastDay };
}

/**
 * Deletes the restricted time records of each employee whose latest day (in `timeZone`) is more than
 * `years` before `now`'s day: the day listed as `until` in the erasure's outcome has come. Answers how many went.
 */
export async function deleteExpiredTimeRecords(em: EntityManager, now: Date, timeZone: string, years: number): Promise<number> {
  const deleted = await rows<{ id: number }>(
    em,
    `with due as (
       select employee_id from time_records where restricted_at is not null group by employee_id
       having max((clock_in_at at time zone ?)::date) + make_interval(years => ?) + interval '1 day' <= (?::timestamptz at time zone ?)::date
     )
     delete from time_records r using due where r.employee_id = due.employee_id and r.restricted_at is not null returning r.id`,
    [timeZone, years, now, timeZone],
  );
  return deleted.length;
}
