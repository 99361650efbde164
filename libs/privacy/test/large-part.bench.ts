// How a large export part travels: through the internal route (stored encrypted, streamed into the
// ZIP) or inside an event (one AMQP message). Prints times and the process's peak RSS growth.
// Run against the test servers: `node libs/privacy/test/large-part.bench.ts [megabytes, default 50]`.
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import amqp from 'amqplib';
import express from 'express';
import { ZipFile } from 'yazl';
import { createOrm } from '@academy/db';
import { diskStorage, encryptedStorage } from '@academy/files';
import { fixedClock } from '@academy/kit';
import { messagingEntities } from '@academy/messaging';
import { createTestDatabase, dropTestDatabase, testUrls } from '@academy/testing';
import { PART_PATH, privacyEntities, privacyPartRoutes, readRemotePart } from '../src/index.ts';
import { storeExport } from '../src/parts.ts';

const megabytes = Number(process.argv[2] ?? 50);
const size = megabytes * 1024 * 1024;
const CHUNK = 1024 * 1024;
const KEY = 'bench-privacy-api-key-0123456789';

/** `size` random bytes as a stream of 1 MB chunks (never held whole). */
const content = () => Readable.from((function* () { for (let sent = 0; sent < size; sent += CHUNK) yield randomBytes(Math.min(CHUNK, size - sent)); })());

let peak = process.memoryUsage().rss;
const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
const measure = async (what: string, work: () => Promise<void>) => {
  global.gc?.();
  const base = process.memoryUsage().rss;
  peak = base;
  const started = performance.now();
  await work();
  const ms = performance.now() - started;
  console.log(`${what}: ${ms.toFixed(0)} ms, ${((size / 1024 / 1024) / (ms / 1000)).toFixed(0)} MB/s, peak RSS +${((peak - base) / 1024 / 1024).toFixed(0)} MB`);
};

const url = await createTestDatabase('privacy_bench');
const orm = await createOrm({ clientUrl: url, entities: [...privacyEntities, ...messagingEntities], migrations: [] });
await orm.schema.create();
const dir = await mkdtemp(path.join(tmpdir(), 'privacy-bench-'));
const storage = encryptedStorage(diskStorage(dir), { currentKeyId: 'k1', keys: new Map([['k1', randomBytes(32)]]) });
const app = express();
const clock = fixedClock(new Date());
app.use(PART_PATH, privacyPartRoutes({ orm, storage, apiKey: KEY, clock }));
const server = app.listen(0);
const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const requestId = randomUUID();
console.log(`a part of one ${megabytes} MB file`);

try {
  await measure('store the part (encrypt to disk)', async () => {
    const entries = await storeExport(storage, 'files', { data: { note: 'bench' }, files: [{ name: 'big.bin', mediaType: 'application/octet-stream', open: async () => content() }] }, []);
    await orm.em.getConnection().execute(
      `insert into privacy_answers (request_id, kind, subject_kind, subject_id, status, attempts, entries, answered_at, expires_at, updated_at) values (?, 'access', 'employee', 1, 'done', 1, ?, now(), now() + interval '30 days', now())`,
      [requestId, JSON.stringify(entries)],
    );
  });
  await measure('internal route → ZIP (decrypt, HTTP, zip, discard)', async () => {
    const part = await readRemotePart(baseUrl, KEY, requestId);
    const zip = new ZipFile();
    part!.entries.forEach((entry, index) => zip.addReadStreamLazy(`svc/${entry.path}`, { compress: false }, (done) => void part!.open(index).then((stream) => done(null, stream), (error: Error) => done(error, undefined as unknown as Readable))));
    zip.end();
    await pipeline(zip.outputStream as unknown as Readable, new Writable({ write: (_chunk, _encoding, next) => next() }));
  });
  await measure('the same bytes in one AMQP message (publish with confirm, then get)', async () => {
    const connection = await amqp.connect(testUrls.rabbitmq);
    try {
      const channel = await connection.createConfirmChannel();
      const queue = `privacy-bench-${randomUUID()}`;
      await channel.assertQueue(queue, { arguments: { 'x-queue-type': 'quorum' } });
      const chunks: Buffer[] = [];
      for await (const chunk of content()) chunks.push(chunk as Buffer);
      // An event's data is JSON: the bytes would travel base64-encoded inside the envelope.
      const body = Buffer.from(JSON.stringify({ data: Buffer.concat(chunks).toString('base64') }));
      await new Promise<void>((resolve, reject) => channel.sendToQueue(queue, body, { persistent: true }, (error) => (error ? reject(error) : resolve())));
      const message = await channel.get(queue, { noAck: true });
      if (!message) throw new Error('the message did not arrive');
      JSON.parse(message.content.toString());
      await channel.deleteQueue(queue);
    } finally {
      await connection.close();
    }
  }).catch((error: unknown) => console.log(`the same bytes in one AMQP message: refused (${(error as Error).message})`));
} finally {
  clearInterval(sampler);
  server.close();
  await orm.close();
  await dropTestDatabase(url);
  await rm(dir, { recursive: true, force: true });
}
