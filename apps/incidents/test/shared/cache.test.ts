import { afterAll, describe, expect, test } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import type { IncidentDetail } from '@academy/contracts';
import { startFaultRedis } from '@academy/infra';
import { createRedis } from '@academy/kit';
import { testUrls } from '@academy/testing';
import { findDetail } from '../../src/incidents/incidents.store.ts';
import { adminAuth, seedEmployee, sql, startIncidents, stopIncidents, useIncidents, type IncidentsService } from '../support.ts';

const base = '/api/v2/incident';

async function employeeWithIncident(service: IncidentsService) {
  const employee = await seedEmployee(service);
  const res = await request(service.url).post('/api/v2/timerecord/clock-out').set(employee.auth).send({ source: 'Web' });
  expect(res.status).toBe(409);
  return { ...employee, incidentId: res.body.details.incidentId as number };
}

/** Polls `condition` every 50 ms for up to `ms`. */
async function eventually(condition: () => Promise<boolean> | boolean, ms = 5000): Promise<boolean> {
  for (const deadline = Date.now() + ms; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 50))) if (await condition()) return true;
  return false;
}

describe('the incident cache', () => {
  // These tests read what the service keeps in Redis: at 100 ms (the default) a command on a loaded
  // machine times out with Redis answering (a stalled event loop), the connection drops and the entry
  // goes unwritten, or the test's next command is refused. 5 s, as the attendance report cache tests.
  const service = useIncidents({ REDIS_COMMAND_TIMEOUT_MS: 5000 });
  const api = () => request(service().url);
  // The test's own look into Redis, as patient.
  const inspector = createRedis(testUrls.redis, { commandTimeoutMs: 5000 });
  afterAll(() => inspector.disconnect());
  /** The service's client is connected (after a timed-out command it reconnects). */
  const cacheReady = () => eventually(() => service().ctx.redis.status === 'ready');

  test('reads are served from Redis for 24 h: a change behind the service is not seen until a write through the API invalidates', async () => {
    const { auth, incidentId } = await employeeWithIncident(service());
    await cacheReady();
    const first = await api().get(`${base}/${incidentId}`).set(auth);
    const key = `${service().ctx.config.CACHE_KEY_PREFIX}:detail:${incidentId}:v0`;
    expect(await eventually(async () => (await inspector.exists(key)) === 1)).toBe(true);
    expect(await inspector.ttl(key)).toBeGreaterThan(24 * 3600 - 10);
    await sql(service(), `update incidents set description = 'changed behind the service' where id = $1`, [incidentId]);
    await cacheReady();
    expect((await api().get(`${base}/${incidentId}`).set(auth)).body.data.description).toBe(first.body.data.description);
    await api().post(`${base}/${incidentId}/admin-thread`).set(adminAuth).send({ message: 'noted' }).expect(201);
    expect((await api().get(`${base}/${incidentId}`).set(auth)).body.data.description).toBe('changed behind the service');
  });

  test('creation invalidates the my-list: a cached list shows the new incident right after it is created', async () => {
    const { auth, incidentId } = await employeeWithIncident(service());
    expect((await api().get(`${base}/my`).set(auth)).body.data.map((item: { id: number }) => item.id)).toEqual([incidentId]);
    await api().post('/api/v2/timerecord/clock-in').set(auth).send({ source: 'Web' }).expect(201);
    const whileOpen = await api().post('/api/v2/timerecord/clock-in').set(auth).send({ source: 'Web' });
    expect((await api().get(`${base}/my`).set(auth)).body.data.map((item: { id: number }) => item.id)).toEqual([whileOpen.body.details.incidentId, incidentId]);
  });

  test('a reader that loaded before a write and stores after it (forced pause) leaves no stale entry behind', async () => {
    const { auth, incidentId } = await employeeWithIncident(service());
    const { cache } = service().deps;
    let writerDone!: () => void;
    const writerAnswered = new Promise<void>((resolve) => (writerDone = resolve));
    let loadedBeforeWrite!: () => void;
    const readerLoaded = new Promise<void>((resolve) => (loadedBeforeWrite = resolve));
    // The reader: a cache miss whose database read happens before the write, and whose store
    // happens after the writer has committed, invalidated and answered.
    const reader = cache.read({ incident: incidentId }, `detail:${incidentId}`, async () => {
      const [row] = await sql<{ messages: number }>(service(), 'select count(*)::int as messages from incident_messages where incident_id = $1', [incidentId]);
      loadedBeforeWrite();
      await writerAnswered;
      return { stale: true, messages: row!.messages } as unknown as IncidentDetail;
    });
    await readerLoaded;
    await api().post(`${base}/${incidentId}/thread`).set(auth).send({ message: 'written during the read' }).expect(201);
    writerDone();
    expect(await reader).toEqual({ stale: true, messages: 0 });
    await new Promise((resolve) => setTimeout(resolve, 50)); // the reader's store is not awaited by it
    for (let i = 0; i < 3; i++) {
      const res = await api().get(`${base}/${incidentId}`).set(auth);
      expect(res.body.data.stale).toBeUndefined();
      expect(res.body.data.messages.map((m: { message: string }) => m.message)).toEqual(['written during the read']);
    }
  });

  test("the console's keyed answer and close, with a detail read held between its database read and its cache write: every read after them shows the answer and the note", async () => {
    const { auth, incidentId } = await employeeWithIncident(service());
    await cacheReady();
    const { cache } = service().deps;
    let writesAnswered!: () => void;
    const writesDone = new Promise<void>((resolve) => (writesAnswered = resolve));
    let loadedBeforeWrites!: () => void;
    const readerLoaded = new Promise<void>((resolve) => (loadedBeforeWrites = resolve));
    // The detail as GET reads it, its database read before the answer, its cache write after the close.
    const held = cache.read({ incident: incidentId }, `detail:${incidentId}`, async () => {
      const detail = await findDetail(<T,>(text: string, values?: unknown[]) => sql<T>(service(), text, values ?? []), incidentId);
      loadedBeforeWrites();
      await writesDone;
      return detail!;
    });
    await readerLoaded;
    const texts = (body: { data: { messages: { message: string }[] } }) => body.data.messages.map((m) => m.message);
    // As the console sends them: each write with its own Idempotency-Key (a keyed write: the bump after the key's commit).
    await api().post(`${base}/${incidentId}/admin-thread`).set(adminAuth).set('Idempotency-Key', randomUUID()).send({ message: 'Recuerda fichar la entrada' }).expect(201);
    // The console's refetch between the two writes fills the answer's version.
    expect(texts((await api().get(`${base}/${incidentId}`).set(adminAuth)).body)).toEqual(['Recuerda fichar la entrada']);
    await api().post(`${base}/${incidentId}/close`).set(adminAuth).set('Idempotency-Key', randomUUID()).send({ message: 'Cerrada tras hablarlo.' }).expect(200);
    writesAnswered();
    expect(texts({ data: await held })).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 50)); // the held read's store is not awaited by it
    await cacheReady();
    for (const reader of [auth, adminAuth, auth]) {
      const res = await api().get(`${base}/${incidentId}`).set(reader).expect(200);
      expect([res.body.data.status, texts(res.body)]).toEqual(['closed', ['Recuerda fichar la entrada', 'Cerrada tras hablarlo.']]);
    }
  });

  test('concurrent readers and writers: after the last write has answered, every read shows every message', async () => {
    const { auth, incidentId } = await employeeWithIncident(service());
    const writes = Array.from({ length: 10 }, (_, i) => api().post(`${base}/${incidentId}/thread`).set(auth).send({ message: `m${i}` }));
    const reads = Array.from({ length: 30 }, () => api().get(`${base}/${incidentId}`).set(auth));
    await Promise.all([...writes, ...reads]);
    for (const path of [`${base}/${incidentId}`, `${base}/${incidentId}/threads`]) {
      const res = await api().get(path).set(auth);
      const messages = (res.body.data.messages ?? res.body.data) as unknown[];
      expect(messages).toHaveLength(10);
    }
  });
});

describe('with Redis paused or stopped', () => {
  test('reads and writes still answer 2xx from PostgreSQL within a bounded time, /readyz says degraded, and nothing stale is read after Redis is back', async () => {
    // A Redis of the test's own on a free port, paused (SIGSTOP) and resumed (SIGCONT) by pid.
    const redis = await startFaultRedis('incidents-cache');
    const service = await startIncidents({ REDIS_URL: redis.url });
    try {
      const api = () => request(service.url);
      const { auth, incidentId } = await employeeWithIncident(service);
      await api().get(`${base}/${incidentId}`).set(auth).expect(200);
      await api().get(`${base}/my`).set(auth).expect(200);

      redis.pause();
      const timed = async <T>(work: () => Promise<T>) => {
        const started = performance.now();
        const result = await work();
        return { result, ms: performance.now() - started };
      };
      const read = await timed(() => api().get(`${base}/${incidentId}`).set(auth));
      expect(read.result.status).toBe(200);
      expect(read.ms).toBeLessThan(2000);
      const write = await timed(() => api().post(`${base}/${incidentId}/thread`).set(auth).send({ message: 'while Redis hangs' }));
      expect(write.result.status).toBe(201);
      expect(write.ms).toBeLessThan(2000);
      const after = await api().get(`${base}/${incidentId}`).set(auth);
      expect(after.body.data.messages.map((m: { message: string }) => m.message)).toEqual(['while Redis hangs']);
      expect((await api().get(`${base}/my`).set(auth)).body.data[0].messageCount).toBe(1);
      await api().post('/api/v2/timerecord/clock-in').set(auth).send({ source: 'App' }).expect(201);
      const ready = await api().get('/readyz');
      expect(ready.status).toBe(200);
      expect(ready.body.status).toBe('degraded');
      expect(ready.body.checks.cache.ok).toBe(false);

      redis.resume();
      // Until the missed invalidation lands, this instance does not read the entry cached before the pause.
      await eventually(() => service.ctx.redis.status === 'ready' && service.deps.cache.pendingInvalidations === 0, 10_000);
      expect(service.deps.cache.pendingInvalidations).toBe(0);
      for (let i = 0; i < 2; i++) {
        const res = await api().get(`${base}/${incidentId}`).set(auth);
        expect(res.body.data.messages.map((m: { message: string }) => m.message)).toEqual(['while Redis hangs']);
      }
      expect((await api().get('/readyz')).body.status).toBe('ready');

      await redis.stop();
      expect((await api().get(`${base}/${incidentId}`).set(auth)).status).toBe(200);
      expect((await api().post(`${base}/${incidentId}/thread`).set(auth).send({ message: 'while Redis is down' })).status).toBe(201);
      const down = await api().get(`${base}/${incidentId}/threads`).set(auth);
      expect(down.status).toBe(200);
      expect(down.body.data).toHaveLength(2);
      expect((await api().get('/readyz')).body.status).toBe('degraded');
    } finally {
      await stopIncidents(service);
      await redis.destroy();
    }
  });
});
