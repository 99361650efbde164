import type { Readable } from 'node:stream';
import type { Actor } from '../shared/actor.ts';
import type { IncidentsContext } from '../shared/incidents-context.ts';
import { fileNotFound } from './incidents.errors.ts';
import { findFile, readableDetail } from './incidents.store.ts';

export interface IncidentFileContent {
  file: { contentType: string; sizeBytes: number; fileName: string };
  content: Readable;
}

/** An attachment, for whoever may read its incident: its metadata and its bytes from storage. */
export async function openIncidentFile(ctx: IncidentsContext, input: { incidentId: number; fileId: number }, actor: Actor): Promise<IncidentFileContent> {
  await readableDetail(ctx, input.incidentId, actor);
  const file = await findFile(ctx.db.query, input.incidentId, input.fileId);
  const content = file ? await ctx.storage.open(file.storageKey) : null;
  if (!file || !content) throw fileNotFound();
  const { storageKey: _storageKey, ...metadata } = file;
  return { file: metadata, content };
}
