import { defineEntity, p } from '@mikro-orm/postgresql';
import { CLOCK_SOURCES, INCIDENT_KINDS } from '@academy/contracts';

export const SEVERITIES = ['low', 'medium', 'high'] as const;
export const INCIDENT_STATUSES = ['open', 'closed'] as const;

/**
 * An anomaly of the time records. Its key is (time record, kind) for record-based kinds and
 * (employee, day, kind) for day-based ones (exactly one of `timeRecordId` and `day` is set), so a
 * retried request, concurrent clock-ins or two scheduled checks never make a second one. Deleting
 * is soft: the row keeps its key, so a later check does not re-create what an admin deleted.
 */
export const Incident = defineEntity({
  name: 'Incident',
  tableName: 'incidents',
  properties: {
    id: p.integer().primary().autoincrement(),
    employeeId: p.integer(),
    /** The employee's login when known (from the request or the employees replica): events carry it for notifications. */
    employeeUserId: p.integer().nullable(),
    kind: p.enum(INCIDENT_KINDS),
    severity: p.enum(SEVERITIES),
    status: p.enum(INCIDENT_STATUSES).default('open'),
    description: p.text(),
    source: p.enum(CLOCK_SOURCES).nullable(),
    deviceId: p.string().length(128).nullable(),
    timeRecordId: p.integer().nullable(),
    day: p.date().nullable(),
    proposedEndAt: p.datetime().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
    closedAt: p.datetime().nullable(),
    closedBy: p.integer().nullable(),
    deletedAt: p.datetime().nullable(),
    deletedBy: p.integer().nullable(),
  },
  uniques: [
    { name: 'incidents_time_record_kind_unique', properties: ['timeRecordId', 'kind'] },
    { name: 'incidents_employee_day_kind_unique', properties: ['employeeId', 'day', 'kind'] },
  ],
  indexes: [{ properties: ['employeeId', 'createdAt'] }, { properties: ['status', 'createdAt'] }],
  checks: [{ name: 'incidents_one_key_check', expression: '(time_record_id is null) <> (day is null)' }],
});

/** A message of an incident's conversation, by the employee or an administrator. */
export const IncidentMessage = defineEntity({
  name: 'IncidentMessage',
  tableName: 'incident_messages',
  properties: {
    id: p.integer().primary().autoincrement(),
    incident: () => p.manyToOne(Incident),
    authorRole: p.enum(['employee', 'admin'] as const),
    authorUserId: p.integer().nullable(),
    body: p.text(),
    createdAt: p.datetime(),
  },
  indexes: [{ properties: ['incident', 'createdAt'] }],
});

/** An attachment of a message; its bytes live in the file storage under `storageKey`. */
export const IncidentFile = defineEntity({
  name: 'IncidentFile',
  tableName: 'incident_files',
  properties: {
    id: p.integer().primary().autoincrement(),
    incident: () => p.manyToOne(Incident),
    message: () => p.manyToOne(IncidentMessage),
    fileName: p.string().length(255),
    contentType: p.string().length(100),
    sizeBytes: p.integer(),
    storageKey: p.string().length(100).unique(),
    uploadedBy: p.integer().nullable(),
    createdAt: p.datetime(),
  },
  indexes: [{ properties: ['incident'] }, { properties: ['message'] }],
});
