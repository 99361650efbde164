import { defineEntity, p } from '@mikro-orm/postgresql';

/** One entry of a stored export part: where it goes in the ZIP and where its encrypted bytes are. */
export interface StoredEntry {
  /** Inside the service's folder of the ZIP: `<feature>.json` or `<feature>/<file name>`. */
  path: string;
  mediaType: string;
  sizeBytes: number;
  /** Its key in the service's (encrypted) storage. */
  storageKey: string;
}

/**
 * A service's answer to one request (the primary key is the request's id, so a request replayed
 * under another event id answers once): `answering` while an attempt stores files (`entries` names
 * each as it is stored, committed apart: a commit that fails leaves them named, for the next attempt or
 * the sweep to remove), `failing` while attempts fail (`attempts` counted outside the rolled-back
 * transaction), then `done`, `nothing-held` or `failed`, with the answer as published.
 * An access part's entries stay until `expires_at` (30 days), then the sweep removes them.
 */
export const PrivacyAnswer = defineEntity({
  name: 'PrivacyAnswer',
  tableName: 'privacy_answers',
  properties: {
    requestId: p.uuid().primary(),
    kind: p.string(),
    subjectKind: p.string(),
    subjectId: p.integer(),
    status: p.string(),
    reason: p.text().nullable(),
    attempts: p.integer().default(0),
    /** The `privacy.part.answered` data as recorded (replayed as it was when the request comes again). */
    answer: p.json<Record<string, unknown>>().nullable(),
    entries: p.json<StoredEntry[]>().nullable(),
    answeredAt: p.datetime().nullable(),
    expiresAt: p.datetime().nullable().index(),
    updatedAt: p.datetime(),
  },
});

export const privacyEntities = [PrivacyAnswer];
