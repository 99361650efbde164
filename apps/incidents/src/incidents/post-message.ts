import { removeFiles, type StoredUpload } from '@academy/files';
import { onRollback } from '@academy/service';
import type { Actor } from '../shared/actor.ts';
import type { IncidentsContext } from '../shared/incidents-context.ts';
import { incidentClosed, incidentNotFound } from './incidents.errors.ts';
import { insertMessage, lockIncident, readableDetail, recordUpdate } from './incidents.store.ts';

export interface PostMessageInput {
  incidentId: number;
  /** `employee`: the incident's own employee (`thread`); `admin`: an administrator on any (`admin-thread`). */
  role: 'employee' | 'admin';
  message: string;
  /** Already stored. */
  files: StoredUpload[];
}

/**
 * A message on the incident's thread, with its files already stored. The message, its files and
 * the `incident.updated` event commit together; then the cache is invalidated. Stored files of a
 * message that is not written are removed again.
 */
export async function postMessage(ctx: IncidentsContext, input: PostMessageInput, actor: Actor) {
  const { incidentId, role, message, files } = input;
  let employeeId: number;
  let messageId: number;
  try {
    ({ employeeId, messageId } = await ctx.db.transaction(async (query) => {
      const incident = await lockIncident(query, incidentId);
      if (!incident || (role === 'employee' && incident.employeeId !== actor.employeeId)) throw incidentNotFound();
      if (incident.status === 'closed') throw incidentClosed();
      const messageId = await insertMessage(query, incidentId, role, actor, message, files);
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
          message,
          fileCount: files.length,
        },
        actor,
      );
      return { employeeId: incident.employeeId, messageId };
    }));
  } catch (error) {
    await removeFiles(ctx.storage, files.map((file) => file.storageKey));
    throw error;
  }
  // Inside a keyed write the message commits with the key, later: if that rolls back, so do its files.
  if (files.length) onRollback(() => removeFiles(ctx.storage, files.map((file) => file.storageKey)));
  ctx.relay.nudge();
  await ctx.cache.invalidate({ incident: incidentId }, { employee: employeeId });
  const detail = await readableDetail(ctx, incidentId, actor);
  return detail.messages.find((posted) => posted.id === messageId)!;
}
