// The SQL of new incidents, which every feature that finds one (a refused clock, the scheduled check) records through `record-incident.ts`.
import type { ClockSource, IncidentKind, TypedEnvelope } from '@academy/contracts';
import { outboxInsertSql, outboxRow } from '@academy/messaging';
import type { Query } from './db.ts';
import { SEVERITY } from './incident-rules.ts';

export interface NewIncident {
  /** Allocated beforehand (`nextval('incidents_id_seq')`, `nextIncidentIdSql`), so the event can name it. */
  id: number;
  employeeId: number;
  employeeUserId: number | null;
  kind: IncidentKind;
  description: string;
  source: ClockSource | null;
  deviceId: string | null;
  /** Exactly one of the two keys. */
  timeRecordId: number | null;
  day: string | null;
  proposedEndAt: string | null;
}

/** The next incident id, as a column of a statement that finds a candidate. */
export const nextIncidentIdSql = `nextval('incidents_id_seq')::int`;

/**
 * The replica's row of the employee is key-share locked first, as at a clock-in: an erasure running
 * now (which locks it `for update` before it deletes their incidents) commits before, and the
 * incident is not raised about the deleted employee; one raised first commits before the erasure
 * reads, and is erased with the rest.
 */
const INSERT_INCIDENT = `
with employee as (select deleted from employees where id = $2 for key share),
inc as (
  insert into incidents (id, employee_id, employee_user_id, kind, severity, status, description, source, device_id, time_record_id, day,
    proposed_end_at, created_at, updated_at)
  select $1, $2, $3, $4, $5, 'open', $6, $7, $8, $9, $10::date, $11::timestamptz, $12::timestamptz, $12::timestamptz
  where not exists (select 1 from employee where deleted)
  on conflict do nothing
  returning id
), event as (
  ${outboxInsertSql({ eventId: '$13::uuid', type: '$14::text', envelope: '$15::jsonb', traceContext: '$16::jsonb' })} from inc
)
select (select id from inc) as created`;

/**
 * Inserts the incident and its `incident.created` event in one statement, unless its key
 * ((time record, kind) or (employee, day, kind)) is taken or the replica says the employee was
 * deleted (erased): then nothing is written. Returns whether it was created.
 */
export async function insertIncident(query: Query, now: Date, incident: NewIncident, created: TypedEnvelope<'incident.created'>): Promise<boolean> {
  const [row] = await query<{ created: number | null }>(INSERT_INCIDENT, [
    incident.id,
    incident.employeeId,
    incident.employeeUserId,
    incident.kind,
    SEVERITY[incident.kind],
    incident.description,
    incident.source,
    incident.deviceId,
    incident.timeRecordId,
    incident.day,
    incident.proposedEndAt,
    now.toISOString(),
    ...outboxRow(created),
  ]);
  return row?.created != null;
}

/** The incident holding a key, for the answer of a request whose incident already existed. */
export async function incidentIdByKey(query: Query, key: { timeRecordId: number; kind: IncidentKind } | { employeeId: number; day: string; kind: IncidentKind }) {
  const [row] =
    'timeRecordId' in key
      ? await query<{ id: number }>('select id from incidents where time_record_id = $1 and kind = $2', [key.timeRecordId, key.kind])
      : await query<{ id: number }>('select id from incidents where employee_id = $1 and day = $2::date and kind = $3', [key.employeeId, key.day, key.kind]);
  return row?.id ?? null;
}
