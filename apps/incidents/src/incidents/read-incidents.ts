import type { Readable } from 'node:stream';
import type { IncidentDetail, IncidentListQuery, IncidentSummary, MyIncidentsQuery } from '@academy/contracts';
import { pageMeta, pageTotal } from '@academy/kit';
import type { Actor } from '../shared/actor.ts';
import { isoSql, type Query } from '../shared/db.ts';
import { fileNotFound, incidentNotFound } from './incidents.errors.ts';
import type { IncidentsContext } from '../shared/incidents-context.ts';
import { EMPLOYEE_NAME_SQL } from '../shared/employee-names.ts';

/** Columns of an incident summary (`i` = incidents); `employees e` may be left-joined for the name. */
export const SUMMARY_COLUMNS = `i.id, i.employee_id as "employeeId", i.kind, i.severity, i.status, i.description, i.source,
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

async function loadDetail(query: Query, incidentId: number): Promise<IncidentDetail | null> {
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

/** A missing incident is not cached (its id may be created later); the entry is per incident, the check per reader. */
function cachedDetail(deps: IncidentsContext, incidentId: number): Promise<IncidentDetail> {
  return deps.cache.read({ incident: incidentId }, `detail:${incidentId}`, async () => {
    const detail = await loadDetail(deps.db.query, incidentId);
    if (!detail) throw incidentNotFound();
    return detail;
  });
}

export async function readIncident(deps: IncidentsContext, actor: Actor, incidentId: number): Promise<IncidentDetail> {
  const detail = await cachedDetail(deps, incidentId);
  if (!canRead(actor, detail)) throw incidentNotFound();
  return detail;
}

export async function readThreads(deps: IncidentsContext, actor: Actor, incidentId: number) {
  const threads = await deps.cache.read({ incident: incidentId }, `threads:${incidentId}`, async () => {
    const detail = await loadDetail(deps.db.query, incidentId);
    if (!detail) throw incidentNotFound();
    return { incidentId, employeeId: detail.employeeId, data: detail.messages };
  });
  if (!canRead(actor, threads)) throw incidentNotFound();
  return { incidentId, data: threads.data };
}

const ORDER = {
  severity: `case i.severity when 'high' then 3 when 'medium' then 2 else 1 end desc, i.created_at desc, i.id desc`,
  newest: `i.created_at desc, i.id desc`,
};

interface PageRows {
  rows: (IncidentSummary & { total: number })[];
  page: number;
  limit: number;
}

function pageOf({ rows, page, limit }: PageRows, total: number) {
  return {
    data: rows.map(({ total: _total, ...summary }) => summary),
    meta: pageMeta(total, page, limit),
  };
}

async function listPage(query: Query, where: string, values: unknown[], order: string, page: number, limit: number) {
  const text = `select ${SUMMARY_COLUMNS}, ${EMPLOYEE_NAME_SQL} as "employeeName", count(*) over ()::int as total
    from incidents i where i.deleted_at is null and ${where} order by ${order} limit $${values.length + 1} offset $${values.length + 2}`;
  const rows = await query<IncidentSummary & { total: number }>(text, [...values, limit, (page - 1) * limit]);
  // A page past the last has no row to carry the total: counted apart then.
  const total = await pageTotal(rows, page, async () => (await query<{ total: number }>(`select count(*)::int as total from incidents i where i.deleted_at is null and ${where}`, values))[0]!.total);
  return pageOf({ rows, page, limit }, total);
}

/** `GET /incident/my`: the employee's own, newest first; cached per employee, status and page. */
export async function listMyIncidents(deps: IncidentsContext, employeeId: number, input: MyIncidentsQuery) {
  const status = input.status ?? null;
  return deps.cache.read({ employee: employeeId }, `my:${employeeId}:${status ?? 'all'}:${input.page}:${input.limit}`, () =>
    listPage(deps.db.query, `i.employee_id = $1 and ($2::text is null or i.status = $2)`, [employeeId, status], ORDER.newest, input.page, input.limit),
  );
}

/** `GET /incident/` (admin): filters, most severe first by default. Not cached: its filters are open-ended. */
export async function listIncidents(deps: IncidentsContext, input: IncidentListQuery) {
  const where = `($1::text is null or i.status = $1) and ($2::int is null or i.employee_id = $2) and ($3::text is null or i.kind = $3)
    and ($4::text is null or i.severity = $4) and ($5::date is null or i.created_at >= ($5::date::timestamp at time zone 'UTC'))
    and ($6::date is null or i.created_at < (($6::date + 1)::timestamp at time zone 'UTC'))`;
  const values = [input.status ?? null, input.employeeId ?? null, input.kind ?? null, input.severity ?? null, input.from ?? null, input.to ?? null];
  return listPage(deps.db.query, where, values, ORDER[input.sort], input.page, input.limit);
}

export interface IncidentFileContent {
  file: { contentType: string; sizeBytes: number; fileName: string };
  content: Readable;
}

/** An attachment, for whoever may read its incident: its metadata and its bytes from storage. */
export async function openIncidentFile(deps: IncidentsContext, actor: Actor, incidentId: number, fileId: number): Promise<IncidentFileContent> {
  await readIncident(deps, actor, incidentId);
  const [file] = await deps.db.query<IncidentFileContent['file'] & { storageKey: string }>(
    `select storage_key as "storageKey", content_type as "contentType", size_bytes as "sizeBytes", file_name as "fileName"
     from incident_files where id = $1 and incident_id = $2`,
    [fileId, incidentId],
  );
  const content = file ? await deps.storage.open(file.storageKey) : null;
  if (!file || !content) throw fileNotFound();
  return { file, content };
}
