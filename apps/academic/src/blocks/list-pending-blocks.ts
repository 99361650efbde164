import { PassThrough, Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Actor } from '@academy/auth';
import type { PendingBlocksQuery } from '@academy/contracts';
import type { AcademicContext } from '../shared/academic-context.ts';
import { selectPendingPageJson, streamPendingGroups } from './blocks.store.ts';

/**
 * The spec's pending listing: every `pending` block (or a page of them), oldest close first, grouped
 * by student in the order of their oldest one, as JSON text: a page (`limit`) as the one query writes
 * it, with the cursor of the page after; the whole listing streamed from PostgreSQL, a batch of
 * students at a time. Answers once the query has answered (an error until then is the request's).
 */
export async function listPendingBlocks(ctx: AcademicContext, input: PendingBlocksQuery, _actor: Actor): Promise<Buffer | Readable> {
  if (input.limit !== undefined) return Buffer.from(await selectPendingPageJson(ctx.orm.em, { ...input, limit: input.limit }));
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
