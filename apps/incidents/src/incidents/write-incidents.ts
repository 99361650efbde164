import type { EventData } from '@academy/contracts';
import { removeFiles, type StoredUpload } from '@academy/files';
import { outboxInsertSql, outboxRow } from '@academy/messaging';
import { onRollback } from '@academy/service';
import type { Actor } from '../shared/actor.ts';
import { isoSql, type Query } from '../shared/db.ts';
import { incidentClosed, incidentNotFound } from './incidents.errors.ts';
import type { IncidentsContext } from '../shared/incidents-context.ts';
import { EMPLOYEE_USER_ID_SQL } from '../shared/employee-names.ts';
import { incidentEnvelope } from '../shared/record-incident.ts';
import { readIncident } from './read-incidents.ts';

interface LockedIncident {
  id: number;
  employeeId: number;
  employeeUserId: number | null;
  status: 'open' | 'closed';
  kind: string;
}

/** Locks the incident row for the transaction: messages, close and delete of one incident serialize. */
async function lockIncident(query: Query, incidentId: number): Promise<LockedIncident | null> {
  const [row] = await query<LockedIncident>(
    `select i.id, i.employee_id as "employeeId", ${EMPLOYEE_USER_ID_SQL} as "employeeUserId", i.status, i.kind
     from incidents i where i.id = $1 and i.deleted_at is null for update of i`,
    [incidentId],
  );
  return row ?? null;
}

async function recordUpdate(query: Query, data: EventData<'incident.updated'>, actor: Actor): Promise<void> {
  const envelope = incidentEnvelope('incident.updated', data, actor.correlationId);
  await query(outboxInsertSql({ eventId: '$1::uuid', type: '$2::text', envelope: '$3::jsonb', traceContext: '$4::jsonb' }), outboxRow(envelope));
}

async function insertMessage(query: Query, incidentId: number, role: 'employee' | 'admin', actor: Actor, body: string, files: StoredUpload[]) {
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

/**
 * A message on the incident's thread, by its employee (`thread`) or an administrator
 * (`admin-thread`), with the files already stored. The message, its files and the
 * `incident.updated` event commit together; then the cache is invalidated. Stored files of a
 * message that is not written are removed again.
 */
export async function postMessage(deps: IncidentsContext, actor: Actor, incidentId: number, role: 'employee' | 'admin', body: string, files: StoredUpload[]) {
  const { db, cache, relay, storage } = deps;
  let employeeId: number;
  let messageId: number;
  try {
    ({ employeeId, messageId } = await db.transaction(async (query) => {
      const incident = await lockIncident(query, incidentId);
      if (!incident || (role === 'employee' && incident.employeeId !== actor.employeeId)) throw incidentNotFound();
      if (incident.status === 'closed') throw incidentClosed();
      const messageId = await insertMessage(query, incidentId, role, actor, body, files);
      await recordUpdate(
        query,
        {
          incidentId,
          employeeId: incident.employeeId,
          employeeUserId: incident.employeeUserId,
          status: incident.status,
          change: role === 'employee' ? 'employee_message' : 'admin_message',
          byUserId: actor.userId,
          kind: incident.kind,
          messageId,
          message: body,
          fileCount: files.length,
        },
        actor,
      );
      return { employeeId: incident.employeeId, messageId };
    }));
  } catch (error) {
    await removeFiles(storage, files.map((file) => file.storageKey));
    throw error;
  }
  // Inside a keyed write the message commits with the key, later: if that rolls back, so do its files.
  if (files.length) onRollback(() => removeFiles(storage, files.map((file) => file.storageKey)));
  relay.nudge();
  await cache.invalidate({ incident: incidentId }, { employee: employeeId });
  const detail = await readIncident(deps, actor, incidentId);
  return detail.messages.find((message) => message.id === messageId)!;
}

/** Admin: closes an open incident, with an optional closing note on the thread. */
export async function closeIncident(deps: IncidentsContext, actor: Actor, incidentId: number, note: string | undefined) {
  const { db, cache, relay } = deps;
  const employeeId = await db.transaction(async (query) => {
    const incident = await lockIncident(query, incidentId);
    if (!incident) throw incidentNotFound();
    if (incident.status === 'closed') throw incidentClosed();
    const messageId = note ? await insertMessage(query, incidentId, 'admin', actor, note, []) : null;
    await query(`update incidents set status = 'closed', closed_at = now(), closed_by = $2, updated_at = now() where id = $1`, [incidentId, actor.userId]);
    await recordUpdate(
      query,
      {
        incidentId,
        employeeId: incident.employeeId,
        employeeUserId: incident.employeeUserId,
        status: 'closed',
        change: 'status_changed',
        byUserId: actor.userId,
        kind: incident.kind,
        messageId,
        message: note ?? null,
        fileCount: 0,
      },
      actor,
    );
    return incident.employeeId;
  });
  relay.nudge();
  await cache.invalidate({ incident: incidentId }, { employee: employeeId });
  const { messages: _messages, files: _files, ...summary } = await readIncident(deps, actor, incidentId);
  return summary;
}

/**
 * Admin: deletes an incident. Soft: the row keeps its key (so the scheduled check does not create
 * it again) and is never shown again; its files stay stored for the record.
 */
export async function deleteIncident(deps: IncidentsContext, actor: Actor, incidentId: number) {
  const { db, cache, relay } = deps;
  const { messages: _messages, files: _files, ...before } = await readIncident(deps, actor, incidentId);
  const employeeId = await db.transaction(async (query) => {
    const incident = await lockIncident(query, incidentId);
    if (!incident) throw incidentNotFound();
    const [deleted] = await query<{ deletedAt: string }>(
      `update incidents set deleted_at = now(), deleted_by = $2, updated_at = now() where id = $1 returning ${isoSql('deleted_at')} as "deletedAt"`,
      [incidentId, actor.userId],
    );
    await recordUpdate(
      query,
      {
        incidentId,
        employeeId: incident.employeeId,
        employeeUserId: incident.employeeUserId,
        status: incident.status,
        change: 'deleted',
        byUserId: actor.userId,
        kind: incident.kind,
      },
      actor,
    );
    before.updatedAt = deleted!.deletedAt;
    return incident.employeeId;
  });
  relay.nudge();
  await cache.invalidate({ incident: incidentId }, { employee: employeeId });
  return before;
}
