import { Readable } from 'node:stream';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { removeFiles, type FileStorage } from '@academy/files';
import type { StoredEntry } from './entities.ts';
import type { ExportAnswer } from './provider.ts';

/** How long a service keeps an export part after answering. */
export const PART_RETENTION_DAYS = 30;

const SAFE_SEGMENT = /^[^/\\\0]{1,200}$/;

/** A file name of a provider, as a path inside its feature's folder: `/`-separated segments, none empty, `.` or `..`. */
export function safeEntryPath(name: string): string {
  const segments = name.split('/');
  if (segments.length > 8 || segments.some((segment) => !SAFE_SEGMENT.test(segment) || segment === '.' || segment === '..')) {
    throw new Error(`export file name ${JSON.stringify(name)} is not a safe relative path`);
  }
  return segments.join('/');
}

/**
 * Writes one provider's export into `storage` (encrypted there): `<feature>.json`, then each file
 * under `<feature>/`. Every key written is pushed to `written` as it is stored, so a failure later
 * in the attempt can remove them, and passed to `recorded` (which the answer's handler commits apart,
 * so that a commit that fails after it leaves the file named: see `recordWrittenEntry`).
 */
export async function storeExport(
  storage: FileStorage,
  feature: string,
  exported: NonNullable<ExportAnswer>,
  written: string[],
  recorded: (entry: StoredEntry) => Promise<void> = async () => undefined,
): Promise<StoredEntry[]> {
  const entries: StoredEntry[] = [];
  const keep = async (entry: StoredEntry) => {
    written.push(entry.storageKey);
    entries.push(entry);
    await recorded(entry);
  };
  const json = Buffer.from(`${JSON.stringify(exported.data, null, 2)}\n`);
  const saved = await storage.save(Readable.from([json]));
  await keep({ path: `${feature}.json`, mediaType: 'application/json', sizeBytes: saved.sizeBytes, storageKey: saved.key });
  const names = new Set<string>();
  for (const file of exported.files ?? []) {
    const path = `${feature}/${safeEntryPath(file.name)}`;
    if (names.has(path)) throw new Error(`export file ${JSON.stringify(file.name)} of ${feature} is named twice`);
    names.add(path);
    const content = await file.open();
    const stored = await storage.save(content);
    await keep({ path, mediaType: file.mediaType, sizeBytes: stored.sizeBytes, storageKey: stored.key });
  }
  return entries;
}

/** A stored part as academic reads it: the entries in order and a way to open each (decrypted). */
export interface PartReader {
  entries: readonly { path: string; mediaType: string; sizeBytes: number }[];
  open(index: number): Promise<Readable>;
}

interface PartRow {
  status: string;
  entries: StoredEntry[] | null;
  expires_at: Date | string | null;
}

/** The part this service keeps for `requestId`, or null when it has none (nothing held, not an access request, expired, swept). */
export async function readLocalPart(em: EntityManager, storage: FileStorage, requestId: string, now: Date): Promise<PartReader | null> {
  const [row] = await em.getConnection().execute<PartRow[]>('select status, entries, expires_at from privacy_answers where request_id = ?', [requestId]);
  if (!row || row.status !== 'done' || !row.entries || !row.expires_at || new Date(row.expires_at).getTime() <= now.getTime()) return null;
  const stored = row.entries;
  return {
    entries: stored.map(({ path, mediaType, sizeBytes }) => ({ path, mediaType, sizeBytes })),
    async open(index) {
      const entry = stored[index];
      if (!entry) throw new Error(`part entry ${index} does not exist`);
      const stream = await storage.open(entry.storageKey);
      if (!stream) throw new Error(`part entry ${entry.path} is missing from storage`);
      return stream;
    },
  };
}

/**
 * How long the files an attempt stored may stay named by a row that is not `done` (the attempt may
 * still be running) before the sweep removes them: its commit failed and no attempt came after.
 */
export const UNANSWERED_FILES_GRACE_MS = 86_400_000;

/** The request a part answers, as `recordWrittenEntry` keys its row. */
interface RequestKey {
  requestId: string;
  kind: string;
  subject: { kind: string; id: number };
}

/**
 * Names a file an attempt has just stored on the request's row, in a statement of its own (a second
 * connection, committed at once), before the attempt's transaction commits. If that commit then fails,
 * the row (not `done`) still names the file: the next attempt removes it before writing its own, or
 * the sweep after `UNANSWERED_FILES_GRACE_MS`. The answer's commit replaces `entries` with the
 * part's (the same keys) or null. Never touches a `done` row.
 */
export async function recordWrittenEntry(orm: MikroORM, request: RequestKey, entry: StoredEntry, now: Date): Promise<void> {
  await orm.em.fork().getConnection().execute(
    `insert into privacy_answers (request_id, kind, subject_kind, subject_id, status, attempts, entries, updated_at) values (?, ?, ?, ?, 'answering', 0, ?::jsonb, ?)
     on conflict (request_id) do update set entries = coalesce(privacy_answers.entries, '[]'::jsonb) || excluded.entries, updated_at = excluded.updated_at
     where privacy_answers.status <> 'done'`,
    [request.requestId, request.kind, request.subject.kind, request.subject.id, JSON.stringify([entry]), now],
    'run',
  );
}

/**
 * Removes the files an earlier attempt of the request stored and no committed answer names (its commit
 * failed, or its process died), then forgets them on the row (the keys it could not remove stay named).
 * Called by the next attempt, which holds the request's lock, before it writes its own.
 */
export async function removeUnansweredEntries(orm: MikroORM, storage: FileStorage, requestId: string, entries: readonly StoredEntry[], now: Date): Promise<void> {
  const left = new Set(await removeFiles(storage, entries.map((entry) => entry.storageKey)));
  const kept = entries.filter((entry) => left.has(entry.storageKey));
  await orm.em.fork().getConnection().execute(
    `update privacy_answers set entries = ?::jsonb, updated_at = ? where request_id = ? and status <> 'done'`,
    [kept.length ? JSON.stringify(kept) : null, now, requestId],
    'run',
  );
}

/**
 * Removes the parts whose 30 days are over, and the files of attempts whose commit failed that no
 * attempt came after to remove (a row not `done` naming files, untouched for `UNANSWERED_FILES_GRACE_MS`):
 * their files, then the row's entries; answers how many rows were emptied.
 */
export async function sweepExpiredParts(orm: MikroORM, storage: FileStorage, now: Date, limit = 100): Promise<number> {
  const connection = orm.em.getConnection();
  const rows = await connection.execute<{ request_id: string; entries: StoredEntry[] }[]>(
    `select request_id, entries from privacy_answers
      where entries is not null and (expires_at <= ? or (status <> 'done' and updated_at <= ?)) order by updated_at limit ?`,
    [now, new Date(now.getTime() - UNANSWERED_FILES_GRACE_MS), limit],
  );
  for (const row of rows) {
    await removeFiles(
      storage,
      row.entries.map((entry) => entry.storageKey),
    );
    // Only while the row still names what was removed: a retry that answered meanwhile (its part named
    // on the row, committed after the read above) keeps its part.
    await connection.execute('update privacy_answers set entries = null, updated_at = ? where request_id = ? and entries = ?::jsonb', [now, row.request_id, JSON.stringify(row.entries)]);
  }
  return rows.length;
}

/**
 * An erasure empties the parts this service still keeps of the person's earlier access requests (an
 * export of an erased person must not outlive the erasure by 30 days): their rows lose their entries
 * in the erasure's transaction; answers the storage keys, to remove once the rows no longer name them.
 */
export async function dropPartsOfSubject(em: EntityManager, subject: { kind: string; id: number }, now: Date): Promise<string[]> {
  const rows = await em.getConnection().execute<{ entries: StoredEntry[] }[]>(
    `with dropped as (select request_id, entries from privacy_answers where subject_kind = ? and subject_id = ? and entries is not null for update)
     update privacy_answers p set entries = null, updated_at = ? from dropped where p.request_id = dropped.request_id returning dropped.entries`,
    [subject.kind, subject.id, now],
    'all',
    em.getTransactionContext(),
  );
  return rows.flatMap((row) => row.entries.map((entry) => entry.storageKey));
}
