import { createHash, timingSafeEqual } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream } from 'node:stream/web';
import type { RequestHandler, Response } from 'express';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { FileStorage } from '@academy/files';
import type { Clock } from '@academy/kit';
import { readLocalPart, safeEntryPath, type PartReader } from './parts.ts';

/** The internal path of a service's part: not behind the gateway, called by academic with the internal key. */
export const PART_PATH = '/internal/privacy/parts';
export const API_KEY_HEADER = 'x-api-key';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const INDEX = /^(0|[1-9][0-9]{0,5})$/;

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Constant-time comparison of the presented key with the service's (hashed first, so lengths leak nothing). */
export function apiKeyMatches(presented: unknown, expected: string): boolean {
  return typeof presented === 'string' && timingSafeEqual(digest(presented), digest(expected));
}

function refuse(res: Response, status: number, code: string, message: string): void {
  res.status(status).json({ code, message });
}

export interface PartRoutesOptions {
  orm: MikroORM;
  storage: FileStorage;
  apiKey: string;
  clock: Clock;
}

const ENTRY_PATH = /^\/([^/]+)(?:\/entries\/([^/]+))?\/?$/;

/**
 * `GET /internal/privacy/parts/{requestId}` answers the part's manifest (`{ requestId, entries:
 * [{ index, path, mediaType, sizeBytes }] }`); `GET …/{requestId}/entries/{index}` streams one entry,
 * decrypted. 401 without the key, 400 for a malformed id, 404 when the service keeps no part for it.
 * Mount it with `app.use(PART_PATH, privacyPartRoutes(…))`. One handler rather than a Router of
 * routes on purpose: these paths are between services, never behind the gateway nor in the public
 * OpenAPI document, so the route-docs check (every routed path documented and sent by the gateway)
 * does not list them.
 */
export function privacyPartRoutes(options: PartRoutesOptions): RequestHandler {
  return async (req, res, next) => {
    const match = ENTRY_PATH.exec(req.path);
    if (req.method !== 'GET' || !match) return next();
    if (!apiKeyMatches(req.headers[API_KEY_HEADER], options.apiKey)) return refuse(res, 401, 'UNAUTHORIZED', 'API key missing or wrong');
    const requestId = match[1]!;
    if (!UUID.test(requestId)) return refuse(res, 400, 'VALIDATION_ERROR', 'requestId must be a uuid');
    const found = await readLocalPart(options.orm.em.fork(), options.storage, requestId.toLowerCase(), options.clock.now());
    if (!found) return refuse(res, 404, 'PART_NOT_FOUND', 'No export part is kept for this request');
    if (match[2] === undefined) {
      res.json({ requestId, entries: found.entries.map((entry, index) => ({ index, ...entry })) });
      return;
    }
    const entry = INDEX.test(match[2]) ? found.entries[Number(match[2])] : undefined;
    if (!entry) return refuse(res, 404, 'PART_ENTRY_NOT_FOUND', 'No such entry in the part');
    const stream = await found.open(Number(match[2]));
    res.status(200).setHeader('content-type', entry.mediaType).setHeader('content-length', String(entry.sizeBytes));
    await pipeline(stream, res);
  };
}

/** A part kept by another service, read over its internal route (academic's side). */
export async function readRemotePart(baseUrl: string, apiKey: string, requestId: string, signal?: AbortSignal): Promise<PartReader | null> {
  const url = `${baseUrl.replace(/\/$/, '')}${PART_PATH}/${requestId}`;
  const response = await fetch(url, { headers: { [API_KEY_HEADER]: apiKey }, signal });
  if (response.status === 404) return null;
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  const manifest = (await response.json()) as { entries: { path: string; mediaType: string; sizeBytes: number }[] };
  return {
    entries: manifest.entries.map(({ path, mediaType, sizeBytes }) => ({ path: safeEntryPath(path), mediaType: String(mediaType), sizeBytes: Number(sizeBytes) })),
    async open(index) {
      const entryResponse = await fetch(`${url}/entries/${index}`, { headers: { [API_KEY_HEADER]: apiKey }, signal });
      if (!entryResponse.ok || !entryResponse.body) throw new Error(`${url}/entries/${index} answered ${entryResponse.status}`);
      return Readable.fromWeb(entryResponse.body as ReadableStream<Uint8Array>);
    },
  };
}
