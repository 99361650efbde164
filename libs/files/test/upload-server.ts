import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from '@jest/globals';
import { sendJson, toErrorResponse } from '@academy/kit';
import { diskStorage, parseMultipart, type FileStorage, type MultipartOptions } from '../src/index.ts';

export const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
export const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

export const messageUpload: MultipartOptions = {
  fields: { message: { maxBytes: 1024 } },
  files: { field: 'files', maxCount: 3, maxBytes: 64 * 1024, types: ['application/pdf', 'image/png'] },
  idleTimeoutMs: 300,
};

/** Every file under a folder. */
export function filesUnder(root: string): string[] {
  const walk = (dir: string): string[] => readdirSync(dir).flatMap((name) => (statSync(path.join(dir, name)).isDirectory() ? walk(path.join(dir, name)) : [path.join(dir, name)]));
  return walk(root);
}

export interface UploadServer {
  url: string;
  root: string;
  storage: FileStorage;
  /** Requests whose parse has not settled yet. */
  inFlight(): number;
}

/**
 * A real HTTP server on 127.0.0.1, port 0: POST /upload parses with `parseMultipart` into a disk
 * storage and answers 201 with the result or the error's status and body; GET /ping answers 200.
 */
export function useUploadServer(options: MultipartOptions = messageUpload, wrap: (storage: FileStorage) => FileStorage = (storage) => storage): () => UploadServer {
  let server: http.Server;
  let context: UploadServer;
  let inFlight = 0;
  beforeAll(async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'files-upload-'));
    const storage = wrap(diskStorage(root));
    server = http.createServer((req, res) => {
      if (req.url === '/ping') return sendJson(res, 200, { ok: true });
      inFlight++;
      parseMultipart(req, storage, options).then(
        (parsed) => sendJson(res, 201, parsed),
        (error: unknown) => {
          const response = toErrorResponse(error);
          for (const [name, value] of Object.entries(response.headers ?? {})) res.setHeader(name, value);
          sendJson(res, response.status, { code: response.code, message: response.message });
        },
      ).finally(() => inFlight--);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    context = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, root, storage, inFlight: () => inFlight };
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    rmSync(context.root, { recursive: true, force: true });
  });
  return () => context;
}
