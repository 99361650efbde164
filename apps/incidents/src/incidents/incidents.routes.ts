import { pipeline } from 'node:stream/promises';
import type { Express, Request, Response } from 'express';
import {
  adminThreadRoute,
  closeIncidentRoute,
  deleteIncidentRoute,
  employeeThreadRoute,
  INCIDENT_FILE_MAX_BYTES,
  INCIDENT_FILE_TYPES,
  INCIDENT_FILES_PER_MESSAGE,
  incidentFileRoute,
  IncidentMessageBody,
  listIncidentsRoute,
  myIncidentsRoute,
  readIncidentRoute,
  readThreadsRoute,
} from '@academy/contracts';
import { parseMultipart, removeFiles, type MultipartOptions, type StoredUpload } from '@academy/files';
import { routeBinder } from '@academy/service';
import { actorOf, ownEmployee, type Actor } from '../shared/actor.ts';
import { adminUsesAdminThread, unsupportedMediaType } from './incidents.errors.ts';
import type { IncidentsContext } from '../shared/incidents-context.ts';
import { listIncidents, listMyIncidents, openIncidentFile, readIncident, readThreads } from './read-incidents.ts';
import { closeIncident, deleteIncident, postMessage } from './write-incidents.ts';

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
async function messageOf(deps: IncidentsContext, req: Request, actor: Actor, incidentId: number): Promise<{ message: string; files: StoredUpload[] }> {
  if (req.is('multipart/form-data')) {
    await readIncident(deps, actor, incidentId);
    const parsed = await parseMultipart(req, deps.storage, messageUpload(deps.config.UPLOAD_IDLE_TIMEOUT_MS));
    const input = IncidentMessageBody.safeParse({ message: parsed.fields.message });
    if (!input.success) {
      await removeFiles(deps.storage, parsed.files.map((file) => file.storageKey));
      throw input.error;
    }
    return { message: input.data.message, files: parsed.files };
  }
  if (req.headers['content-type'] && !req.is('application/json')) throw unsupportedMediaType();
  return { message: IncidentMessageBody.parse(req.body ?? {}).message, files: [] };
}

/** `/api/v2/incident/*`: the spec's six routes, plus file download, close and delete (admin). */
export function registerIncidentRoutes(app: Express, deps: IncidentsContext): void {
  const bind = routeBinder(app, deps);

  bind(listIncidentsRoute, async ({ query, res }) => {
    res.json(await listIncidents(deps, query));
  });

  bind(myIncidentsRoute, async ({ query, req, res }) => {
    res.json(await listMyIncidents(deps, ownEmployee(actorOf(req, res)), query));
  });

  bind(readIncidentRoute, async ({ params, req, res }) => {
    res.json({ data: await readIncident(deps, actorOf(req, res), params.id) });
  });

  bind(readThreadsRoute, async ({ params, req, res }) => {
    res.json(await readThreads(deps, actorOf(req, res), params.id));
  });

  const post = (role: 'employee' | 'admin') => async ({ params, req, res }: { params: { id: number }; req: Request; res: Response }) => {
    const actor = actorOf(req, res);
    if (role === 'employee' && actor.role === 'admin') throw adminUsesAdminThread();
    if (role === 'employee') ownEmployee(actor);
    const { message, files } = await messageOf(deps, req, actor, params.id);
    const data = await postMessage(deps, actor, params.id, role, message, files);
    res.status(201).json({ message: 'Message sent', data });
  };
  bind(employeeThreadRoute, post('employee'));
  bind(adminThreadRoute, post('admin'));

  bind(incidentFileRoute, async ({ params, req, res }) => {
    const { file, content } = await openIncidentFile(deps, actorOf(req, res), params.id, params.fileId);
    res.setHeader('content-type', file.contentType);
    res.setHeader('content-length', String(file.sizeBytes));
    res.setHeader('content-disposition', `attachment; filename="${file.fileName.replace(/[^\x20-\x7e]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(file.fileName)}`);
    // A client gone mid-download (or a read error once the headers are out) ends only this answer.
    await pipeline(content, res).catch((error: unknown) => req.log.debug({ err: error }, 'file download ended early'));
  });

  bind(closeIncidentRoute, async ({ params, body, req, res }) => {
    res.json({ message: 'Incident closed', data: await closeIncident(deps, actorOf(req, res), params.id, body.message) });
  });

  bind(deleteIncidentRoute, async ({ params, req, res }) => {
    res.json({ message: 'Incident deleted', data: await deleteIncident(deps, actorOf(req, res), params.id) });
  });
}
