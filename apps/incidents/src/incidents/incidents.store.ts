import type { EventData, IncidentDetail, IncidentSummary } from '@academy/contracts';
import type { StoredUpload } from '@academy/files';
import { pageMeta, pageTotal } from '@academy/kit';
import { outboxInsertSql, outboxRow } from '@academy/messaging';
import type { Actor } from '../shared/actor.ts';
import { isoSql, type Query } from '../shared/db.ts';
import { EMPLOYEE_NAME_SQL, EMPLOYEE_USER_ID_SQL } from '../shared/employees.store.ts';
import { incidentEnvelope } from '../shared/incident-events.ts';
import type { IncidentsContext } from '../shared/incidents-context.ts';
import { incidentNotFound } from './incidents.errors.ts';

/** Columns of an incident summary (`i` = incidents); `employees e` may be left-joined for the name. */
const SUMMARY_COLUMNS = `i.id, i.employee_id as "employeeId", i.kind, i.severity, i.status, i.description, i.source,
  i.device_id as "deviceId", i.time_record_id as "timeRecordId", i.day::text as day, ${isoSql('i.proposed_end_at')} as "proposedEndAt",
  (select count(*)::int from incident_messages m where m.incident_id = i.id) as "messageCount",
  ${isoSql('i.created_at')} as "createdAt", ${isoSql('i.updated_at')} as "updatedAt", ${isoSql('i.closed_at')} as "closedAt"`;

const fileUrl = (incidentId: number, fileId: number) => `/api/v2/incident/${incidentId}/files/${fileId}`;

/** The detail in one statement: the incident, its messages and its files (JSON aggregates). */
const DETAIL = `
select ${SUMMARY_COLUMNS}, ${EMPLOYEE_NAME_SQL} as "employeeName",
  coalesce((select json_agg(json_build_object('id', m.id, 'authorRole', m.author_role, 'authorUserId', m.author_user_id, 'message', m.body,
      'createdAt', ${isoSql('m.created_at')}) order by m.created_at, m.id)
    from incident_messages m where m.incident_id = i.id), '[]'::json) as messages,
  coalesce((select json_agg(json_build_object('id', f.id, 'messageId', f.message_id, 'fileName', f.file_name, 'contentType', f.content_type,
      'sizeBytes', f.size_bytes, 'createdAt', ${isoSql('f.created_at')}) order by f.id)
    from incident_files f where f.incident_id = i.id), '[]'::json) as files
from incidents i where i.id = $1 and i.deleted_at is null`;

type DetailRow = Omit<IncidentDetail, 'messages' | 'files'> & {
  messages: Omit<IncidentDetail['messages'][number], 'files'>[];
  files: Omit<IncidentDetail['files'][number], 'url'>[];
};

/** The incident with its messages, each with its files (and their URLs); null when missing or deleted. */
export async function findDetail(query: Query, incidentId: number): Promise<IncidentDetail | null> {
  const [row] = await query<DetailRow>(DETAIL, [incidentId]);
  if (!row) return null;
  const files = row.files.map((file) => ({ ...file, url: fileUrl(row.id, file.id) }));
  const messages = row.messages.map((message) => ({ ...message, files: files.filter((file) => file.messageId === message.id) }));
  return { ...row, messages, files };
}

/** Admins read every incident; a user only their own employee's, and another's is a 404 like a missing one. */
export function canRead(actor: Actor, incident: { employeeId: number }): boolean {
  return actor.role === 'admin' || (actor.employeeId !== null && actor.employeeId === incident.employeeId);
}

/**
 * The incident with its thread and files, for whoever may read it (`canRead`): missing, deleted and
 * another's are the same 404. Cached per incident (a missing one is not: its id may be created
 * later); the check is per reader. What reading an incident and answering a write of one share.
 */
export async function readableDetail(ctx: Pick<IncidentsContext, 'db' | 'cache'>, incidentId: number, actor: Actor): Promise<IncidentDetail> {
  const detail = await ctx.cache.read({ incident: incidentId }, `detail:${incidentId}`, async () => {
    const found = await findDetail(ctx.db.query, incidentId);
    if (!found) throw incidentNotFound();
    return found;
  });
  if (!canRead(actor, detail)) throw incidentNotFound();
  return detail;
}

const ORDER = {
  severity: `case i.severity when 'high' then 3 when 'medium' then 2 else 1 end desc, i.created_at desc, i.id desc`,
  newest: `i.created_at desc, i.id desc`,
};

/** A page of live incidents matching `where` (over `values`), with the total of all that match. */
async function listPage(query: Query, where: string, values: unknown[], order: string, page: number, limit: number) {
  const text = `select ${SUMMARY_COLUMNS}, ${EMPLOYEE_NAME_SQL} as "employeeName", count(*) over ()::int as total
    from incidents i where i.deleted_at is null and ${where} order by ${order} limit $${values.length + 1} offset $${values.length + 2}`;
  const rows = await query<IncidentSummary & { total: number }>(text, [...values, limit, (page - 1) * limit]);
  // A page past the last has no row to carry the total: counted apart then.
  const total = await pageTotal(rows, page, async () => (await query<{ total: number }>(`select count(*)::int as total from incidents i where i.deleted_at is null and ${where}`, values))[0]!.total);
  return {
    data: rows.map(({ total: _total, ...summary }) => summary),
    meta: pageMeta(total, page, limit),
  };
}

/** The employee's own incidents (of one status, or all), newest first. */
export function listOfEmployee(query: Query, employeeId: number, filter: { status: string | null; page: number; limit: number }) {
  return listPage(query, `i.employee_id = $1 and ($2::text is null or i.status = $2)`, [employeeId, filter.status], ORDER.newest, filter.page, filter.limit);
}

export interface IncidentFilter {
  status: string | null;
  employeeId: number | null;
  kind: string | null;
  severity: string | null;
  /** Created on or after this UTC day, `YYYY-MM-DD`. */
  from: string | null;
  /** Created on or before this UTC day. */
  to: string | null;
  sort: keyof typeof ORDER;
  page: number;
  limit: number;
}

/** Every incident matching the filter, most severe or newest first. */
export function listMatching(query: Query, filter: IncidentFilter) {
  const where = `($1::text is null or i.status = $1) and ($2::int is null or i.employee_id = $2) and ($3::text is null or i.kind = $3)
    and ($4::text is null or i.severity = $4) and ($5::date is null or i.created_at >= ($5::date::timestamp at time zone 'UTC'))
    and ($6::date is null or i.created_at < (($6::date + 1)::timestamp at time zone 'UTC'))`;
  const values = [filter.status, filter.employeeId, filter.kind, filter.severity, filter.from, filter.to];
  return listPage(query, where, values, ORDER[filter.sort], filter.page, filter.limit);
}

export interface IncidentFileRow {
  storageKey: string;
  contentType: string;
  sizeBytes: number;
  fileName: string;
}

export async function findFile(query: Query, incidentId: number, fileId: number): Promise<IncidentFileRow | null> {
  const [file] = await query<IncidentFileRow>(
    `select storage_key as "storageKey", content_type as "contentType", size_bytes as "sizeBytes", file_name as "fileName"
     from incident_files where id = $1 and incident_id = $2`,
    [fileId, incidentId],
  );
  return file ?? null;
}

export interface LockedIncident {
  id: number;
  employeeId: number;
  employeeUserId: number | null;
  status: 'open' | 'closed';
  kind: string;
}

/** Locks the incident row for the transaction: messages, close and delete of one incident serialize. */
export async function lockIncident(query: Query, incidentId: number): Promise<LockedIncident | null> {
  const [row] = await query<LockedIncident>(
    `select i.id, i.employee_id as "employeeId", ${EMPLOYEE_USER_ID_SQL} as "employeeUserId", i.status, i.kind
     from incidents i where i.id = $1 and i.deleted_at is null for update of i`,
    [incidentId],
  );
  return row ?? null;
}

/** The `incident.updated` event, in the outbox of the caller's transaction. */
export async function recordUpdate(query: Query, data: EventData<'incident.updated'>, actor: Actor): Promise<void> {
  const envelope = incidentEnvelope('incident.updated', data, actor.correlationId);
  await query(outboxInsertSql({ eventId: '$1::uuid', type: '$2::text', envelope: '$3::jsonb', traceContext: '$4::jsonb' }), outboxRow(envelope));
}

/** A message on the thread with its stored files; the incident's `updated_at` follows. Answers the message's id. */
export async function insertMessage(query: Query, incidentId: number, role: 'employee' | 'admin', actor: Actor, body: string, files: StoredUpload[]): Promise<number> {
  const [message] = await query<{ id: number }>(
    `insert into incident_messages (incident_id, author_role, author_user_id, body, created_at) values ($1, $2, $3, $4, now()) returning id`,
    [incidentId, role, actor.userId, body],
  );
  if (files.length)
    await query(
      `insert into incident_files (incident_id, message_id, file_name, content_type, size_bytes, storage_key, uploaded_by, created_at)
       select $1, $2, f.name, f.type, f.size, f.key, $3, now() from unnest($4::text[], $5::text[], $6::int[], $7::text[]) as f(name, type, size, key)`,
      [incidentId, message!.id, actor.userId, files.map((f) => f.fileName), files.map((f) => f.contentType), files.map((f) => f.sizeBytes), files.map((f) => f.storageKey)],
    );
  await query(`update incidents set updated_at = now() where id = $1`, [incidentId]);
  return message!.id;
}

export async function markClosed(query: Query, incidentId: number, byUserId: number | null): Promise<void> {
  await query(`update incidents set status = 'closed', closed_at = now(), closed_by = $2, updated_at = now() where id = $1`, [incidentId, byUserId]);
}

/** Soft delete: the row keeps its key. Answers when it was deleted (ISO). */
export async function markDeleted(query: Query, incidentId: number, byUserId: number | null): Promise<string> {
  const [deleted] = await query<{ deletedAt: string }>(
    `update incidents set deleted_at = now(), deleted_by = $2, updated_at = now() where id = $1 returning ${isoSql('deleted_at')} as "deletedAt"`,
    [incidentId, byUserId],
  );
  return deleted!.deletedAt;
}
