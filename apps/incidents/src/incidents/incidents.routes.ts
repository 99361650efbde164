import { pipeline } from 'node:stream/promises';
import { Router, type Request, type Response } from 'express';
import { requireRole } from '@academy/auth';
import {
  CloseIncidentBody,
  INCIDENT_FILE_MAX_BYTES,
  INCIDENT_FILE_TYPES,
  INCIDENT_FILES_PER_MESSAGE,
  IncidentFileParams,
  IncidentListQuery,
  IncidentMessageBody,
  MyIncidentsQuery,
} from '@academy/contracts';
import { parseMultipart, removeFiles, type MultipartOptions } from '@academy/files';
import { idParam, noQuery } from '@academy/kit';
import { actorOf, ownEmployee, type Actor } from '../shared/actor.ts';
import { adminUsesAdminThread, fileNotFound, unsupportedMediaType } from '../shared/errors.ts';
import type { IncidentsContext } from '../shared/incidents-context.ts';
import { listIncidents, listMyIncidents, readIncident, readThreads } from './read-incidents.ts';
import { closeIncident, deleteIncident, postMessage } from './write-incidents.ts';

const incidentIdOf = (req: Request) => idParam(req.params, 'id');

/** A thread message as multipart: its text (the schema then checks it) and up to five files, each checked by its bytes. */
const messageUpload = (idleTimeoutMs: number): MultipartOptions => ({
  fields: { message: { maxBytes: 64 * 1024 } },
  files: { field: 'files', maxCount: INCIDENT_FILES_PER_MESSAGE, maxBytes: INCIDENT_FILE_MAX_BYTES, types: INCIDENT_FILE_TYPES },
  idleTimeoutMs,
});

/** `/api/v2/incident/*`: the spec's six routes, plus file download, close and delete (admin). */
export function incidentsRouter(incidents: IncidentsContext): Router {
  const router = Router();
  const adminOnly = requireRole('admin', { message: 'Only administrators may do this' });

  router.get('/', adminOnly, async (req, res) => {
    res.json(await listIncidents(incidents, IncidentListQuery.parse(req.query)));
  });

  router.get('/my', async (req, res) => {
    const employeeId = ownEmployee(actorOf(req, res));
    res.json(await listMyIncidents(incidents, employeeId, MyIncidentsQuery.parse(req.query)));
  });

  router.get('/:id', noQuery, async (req, res) => {
    res.json({ data: await readIncident(incidents, actorOf(req, res), incidentIdOf(req)) });
  });

  router.get('/:id/threads', noQuery, async (req, res) => {
    res.json(await readThreads(incidents, actorOf(req, res), incidentIdOf(req)));
  });

  /** JSON `{message}` or multipart `message` + `files`; the id and the author are checked before any byte is stored. */
  const post = (role: 'employee' | 'admin') => async (req: Request, res: Response) => {
    const actor: Actor = actorOf(req, res);
    if (role === 'employee' && actor.role === 'admin') throw adminUsesAdminThread();
    if (role === 'employee') ownEmployee(actor);
    const incidentId = incidentIdOf(req);
    if (req.is('multipart/form-data')) {
      // Read access first, so nobody stores files on an incident they cannot see.
      await readIncident(incidents, actor, incidentId);
      const parsed = await parseMultipart(req, incidents.storage, messageUpload(incidents.config.UPLOAD_IDLE_TIMEOUT_MS));
      const input = IncidentMessageBody.safeParse({ message: parsed.fields.message });
      if (!input.success) {
        await removeFiles(incidents.storage, parsed.files.map((file) => file.storageKey));
        throw input.error;
      }
      const data = await postMessage(incidents, actor, incidentId, role, input.data.message, parsed.files);
      res.status(201).json({ message: 'Message sent', data });
      return;
    }
    if (req.headers['content-type'] && !req.is('application/json')) throw unsupportedMediaType();
    const input = IncidentMessageBody.parse(req.body ?? {});
    const data = await postMessage(incidents, actor, incidentId, role, input.message, []);
    res.status(201).json({ message: 'Message sent', data });
  };
  router.post('/:id/thread', noQuery, post('employee'));
  router.post('/:id/admin-thread', adminOnly, noQuery, post('admin'));

  router.get('/:id/files/:fileId', noQuery, async (req, res) => {
    const { id, fileId } = IncidentFileParams.parse(req.params);
    await readIncident(incidents, actorOf(req, res), id);
    const file = await findFile(incidents, id, fileId);
    const content = file ? await incidents.storage.open(file.storageKey) : null;
    if (!file || !content) throw fileNotFound();
    res.setHeader('content-type', file.contentType);
    res.setHeader('content-length', String(file.sizeBytes));
    res.setHeader('content-disposition', `attachment; filename="${file.fileName.replace(/[^\x20-\x7e]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(file.fileName)}`);
    // A client gone mid-download (or a read error once the headers are out) ends only this answer.
    await pipeline(content, res).catch((error: unknown) => req.log.debug({ err: error }, 'file download ended early'));
  });

  router.post('/:id/close', adminOnly, noQuery, async (req, res) => {
    const incidentId = incidentIdOf(req);
    const input = CloseIncidentBody.parse(req.body ?? {});
    res.json({ message: 'Incident closed', data: await closeIncident(incidents, actorOf(req, res), incidentId, input.message) });
  });

  router.delete('/:id', adminOnly, noQuery, async (req, res) => {
    res.json({ message: 'Incident deleted', data: await deleteIncident(incidents, actorOf(req, res), incidentIdOf(req)) });
  });

  return router;
}

function findFile(incidents: IncidentsContext, incidentId: number, fileId: number) {
  return incidents.db
    .query<{ storageKey: string; contentType: string; sizeBytes: number; fileName: string }>(
      `select storage_key as "storageKey", content_type as "contentType", size_bytes as "sizeBytes", file_name as "fileName"
       from incident_files where id = $1 and incident_id = $2`,
      [fileId, incidentId],
    )
    .then(([row]) => row ?? null);
}
