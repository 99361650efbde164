import type { Readable } from 'node:stream';
import { ZipFile } from 'yazl';
import type { Actor } from '@academy/auth';
import { readLocalPart, readRemotePart, type PartReader } from '@academy/privacy';
import type { AcademicContext } from '../shared/academic-context.ts';
import { exportNotReady, exportRemoved, notAnAccessRequest, partUnreachable, requestNotFound } from './privacy-requests.errors.ts';
import { audit, findRequest, partsOf } from './privacy-requests.store.ts';
import { exportReadme } from './export-readme.ts';

const COMPRESSED = new Set(['application/json', 'text/plain', 'text/csv']);

/**
 * An access request's export as one ZIP, streamed: README.txt in the person's language, then each
 * service's part (`<service>/<feature>.json`, `<service>/<feature>/<files>`). Academic's part is read
 * from its own storage, the others' from each service's internal route: every manifest is read before
 * the first byte (a service down is a 503 naming it), each entry is opened only when its turn comes.
 */
export async function streamPrivacyExport(ctx: AcademicContext, input: { id: number }, actor: Actor): Promise<{ fileName: string; content: Readable }> {
  const em = ctx.orm.em.fork();
  const now = ctx.clock.now();
  const request = await findRequest(em, input.id);
  if (!request) throw requestNotFound();
  if (request.kind !== 'access') throw notAnAccessRequest();
  const parts = await partsOf(em, [request.request_id]);
  const waiting = parts.filter((part) => part.status === 'pending').map((part) => part.service);
  if (waiting.length > 0) throw exportNotReady(waiting);
  const withExport = parts.filter((part) => part.answer?.export);
  if (withExport.some((part) => Date.parse(part.answer!.export!.expiresAt) <= now.getTime())) throw exportRemoved();

  const readers: { service: string; reader: PartReader }[] = [];
  for (const part of withExport) {
    let reader: PartReader | null;
    try {
      reader =
        part.service === 'academic'
          ? await readLocalPart(em, ctx.privacyStorage, request.request_id, now)
          : await readRemotePart(ctx.config.PRIVACY_PART_URLS[part.service] ?? '', ctx.config.PRIVACY_API_KEY, request.request_id, AbortSignal.timeout(10_000));
    } catch (error) {
      ctx.logger.warn({ err: error, service: part.service, requestId: request.request_id }, 'privacy export: a part could not be read');
      throw partUnreachable(part.service);
    }
    if (!reader) throw exportRemoved();
    readers.push({ service: part.service, reader });
  }
  await audit(em, request.request_id, 'downloaded', actor.userId, now);

  const zip = new ZipFile();
  const mtime = new Date(request.opened_at);
  zip.addBuffer(Buffer.from(exportReadme(request, parts, request.locale)), 'README.txt', { mtime });
  for (const { service, reader } of readers) {
    reader.entries.forEach((entry, index) => {
      zip.addReadStreamLazy(`${service}/${entry.path}`, { mtime, compress: COMPRESSED.has(entry.mediaType), size: entry.sizeBytes }, (done) => {
        reader.open(index).then(
          (stream) => done(null, stream),
          (error: unknown) => done(error as Error, undefined as unknown as Readable),
        );
      });
    });
  }
  // An entry that fails mid-way (a service gone during the download) ends the download with it, never the process.
  const output = zip.outputStream as unknown as Readable;
  zip.on('error', (error: Error) => output.destroy(error));
  zip.end();
  return { fileName: `privacy-export-${request.id}.zip`, content: output };
}
