import { PassThrough, Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Actor } from '@academy/auth';
import type { PendingBlocksQuery } from '@academy/contracts';
import type { AcademicContext } from '../shared/academic-context.ts';
import { selectPendingPageJson, selectPendingPageWithVersion, selectPendingVersion, streamPendingGroups, type PendingPageQuery } from './blocks.store.ts';

/**
 * The spec's pending listing: every `pending` block (or a page of them), oldest close first, grouped
 * by student in the order of their oldest one, as JSON text: a page (`limit`), or one student's whole
 * listing, from the one query's rows, with the cursor of the page after (a page's), kept in the
 * instance's page cache under the queue's version
 * (read first: a page computed after a change that committed meanwhile is fresher than its key, and
 * any request after that commit reads a newer version; a page this instance has not been asked before
 * reads the version in its own statement, one round trip); the whole listing streamed from PostgreSQL, a
 * batch of students at a time. Answers once the query has answered (an error until then is the request's).
 */
export async function listPendingBlocks(ctx: AcademicContext, input: PendingBlocksQuery, _actor: Actor): Promise<Buffer | Readable> {
  // A page, or one student's whole listing (a student's blocks, a few: bounded, so answered and kept as a page is).
  const query: PendingPageQuery | undefined = input.limit !== undefined ? { ...input, limit: input.limit } : input.studentId !== undefined ? { ...input, limit: undefined, studentId: input.studentId } : undefined;
  if (query !== undefined) {
    return Buffer.from(
      await ctx.pendingPages.text(
        () => selectPendingVersion(ctx.orm.em),
        query,
        () => selectPendingPageJson(ctx.orm.em, query),
        () => selectPendingPageWithVersion(ctx.orm.em, query),
      ),
    );
  }
  const body = new PassThrough();
  await new Promise<void>((answered, failed) => {
    streamPendingGroups(ctx.orm.em, input, (groups) => pipeline(groups, listingJson(answered), body)).catch((error: unknown) => {
      failed(error);
      body.destroy(error as Error);
    });
  });
  return body;
}

/** Bytes of JSON gathered before they are written: a write (and a chunk through the gateway) per 64 KiB, not per student. */
const CHUNK = 64 * 1024;

/** The groups' rows (`{ group, total }`, each group's JSON) as the answer's JSON; `answered` once the first row, or the end, has come. */
function listingJson(answered: () => void): Transform {
  let first = true;
  let gathered = '';
  return new Transform({
    writableObjectMode: true,
    transform(row: { group: string; total: number }, _encoding, done) {
      if (first) answered();
      gathered += `${first ? `{"ok":true,"total":${row.total},"byStudent":[` : ','}${row.group}`;
      first = false;
      if (gathered.length < CHUNK) return done();
      const chunk = gathered;
      gathered = '';
      done(null, chunk);
    },
    flush(done) {
      answered();
      done(null, first ? '{"ok":true,"total":0,"byStudent":[]}' : `${gathered}]}`);
    },
  });
}
