import type { Request } from 'express';
import {
  INCIDENT_FILE_MAX_BYTES,
  INCIDENT_FILE_TYPES,
  INCIDENT_FILES_PER_MESSAGE,
  IncidentMessageBody,
  incidentsContract,
} from '@academy/contracts';
import { parseMultipart, removeFiles, type MultipartOptions, type StoredUpload } from '@academy/files';
import { ownEmployee, type Actor } from '../shared/actor.ts';
import { adminUsesAdminThread, unsupportedMediaType } from './incidents.errors.ts';
import { implement, type IncidentsContext } from '../shared/incidents-context.ts';
import { closeIncident } from './close-incident.ts';
import { deleteIncident } from './delete-incident.ts';
import { listIncidents } from './list-incidents.ts';
import { listMyIncidents } from './list-my-incidents.ts';
import { openIncidentFile } from './open-incident-file.ts';
import { postMessage } from './post-message.ts';
import { readIncident } from './read-incident.ts';
import { readThreads } from './read-threads.ts';

/** A thread message as multipart: its text (the schema then checks it) and up to five files, each checked by its bytes. */
const messageUpload = (idleTimeoutMs: number): MultipartOptions => ({
  fields: { message: { maxBytes: 64 * 1024 } },
  files: { field: 'files', maxCount: INCIDENT_FILES_PER_MESSAGE, maxBytes: INCIDENT_FILE_MAX_BYTES, types: INCIDENT_FILE_TYPES },
  idleTimeoutMs,
});

/**
 * The message of a thread post: JSON `{message}`, or multipart `message` + `files`, stored as they
 * stream once the reader's access is checked (nobody stores files on an incident they cannot see).
 */
async function messageOf(ctx: IncidentsContext, req: Request, actor: Actor, incidentId: number): Promise<{ message: string; files: StoredUpload[] }> {
  if (req.is('multipart/form-data')) {
    await readIncident(ctx, { incidentId }, actor);
    const parsed = await parseMultipart(req, ctx.storage, messageUpload(ctx.config.UPLOAD_IDLE_TIMEOUT_MS));
    const input = IncidentMessageBody.safeParse({ message: parsed.fields.message });
    if (!input.success) {
      await removeFiles(ctx.storage, parsed.files.map((file) => file.storageKey));
      throw input.error;
    }
    return { message: input.data.message, files: parsed.files };
  }
  if (req.headers['content-type'] && !req.is('application/json')) throw unsupportedMediaType();
  return { message: IncidentMessageBody.parse(req.body ?? {}).message, files: [] };
}

/** A thread post, by the employee on their own incident or by an administrator on any. */
async function post(ctx: IncidentsContext, req: Request, actor: Actor, incidentId: number, role: 'employee' | 'admin') {
  if (role === 'employee' && actor.role === 'admin') throw adminUsesAdminThread();
  if (role === 'employee') ownEmployee(actor);
  const { message, files } = await messageOf(ctx, req, actor, incidentId);
  return { status: 201 as const, body: { message: 'Message sent' as const, data: await postMessage(ctx, { incidentId, role, message, files }, actor) } };
}

/** A file's name in `content-disposition`: ASCII for old clients, UTF-8 for the rest. */
const attachment = (fileName: string) => `attachment; filename="${fileName.replace(/[^\x20-\x7e]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;

/** `/api/v2/incident/*`: the spec's six routes, plus file download, close and delete (admin). */
export const incidentRoutes = implement(incidentsContract, {
  list: async ({ query }, ctx, actor) => ({ status: 200, body: await listIncidents(ctx, query, actor) }),

  mine: async ({ query }, ctx, actor) => ({ status: 200, body: await listMyIncidents(ctx, query, actor) }),

  read: async ({ params }, ctx, actor) => ({ status: 200, body: { data: await readIncident(ctx, { incidentId: params.id }, actor) } }),

  readThreads: async ({ params }, ctx, actor) => ({ status: 200, body: await readThreads(ctx, { incidentId: params.id }, actor) }),

  employeeThread: async ({ params, req }, ctx, actor) => post(ctx, req, actor, params.id, 'employee'),

  adminThread: async ({ params, req }, ctx, actor) => post(ctx, req, actor, params.id, 'admin'),

  // A client gone mid-download (or a read error once the headers are out) ends only this answer.
  file: async ({ params }, ctx, actor) => {
    const { file, content } = await openIncidentFile(ctx, { incidentId: params.id, fileId: params.fileId }, actor);
    return {
      status: 200,
      body: content,
      headers: { 'content-type': file.contentType, 'content-length': String(file.sizeBytes), 'content-disposition': attachment(file.fileName) },
    };
  },

  close: async ({ params, body }, ctx, actor) => ({ status: 200, body: { message: 'Incident closed', data: await closeIncident(ctx, { incidentId: params.id, note: body.message }, actor) } }),

  delete: async ({ params }, ctx, actor) => ({ status: 200, body: { message: 'Incident deleted', data: await deleteIncident(ctx, { incidentId: params.id }, actor) } }),
});
