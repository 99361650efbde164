import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { Server } from 'node:http';
import request from 'supertest';
import { z } from 'zod';
import { closeServer, createHttpApp, createLogger, createMetrics, errorStyle, idParam, listen, NotFoundError, portOf } from '../src/index.ts';

describe('createHttpApp', () => {
  let server: Server;
  let url: string;
  let ready = true;

  beforeAll(async () => {
    const app = createHttpApp({
      logger: createLogger('kit-test', 'silent'),
      metrics: createMetrics('kit-test'),
      readiness: [{ name: 'database', check: () => { if (!ready) throw new Error('down'); } }],
      bodyLimit: '1kb',
      routes: (express) => {
        express.post('/things', (req, res) => {
          const body = z.strictObject({ name: z.string().min(1), size: z.number().int() }).parse(req.body);
          res.status(201).json(body);
        });
        express.get('/things/:id', (req, res) => {
          const id = idParam(req.params, 'id');
          if (id === 404) throw new NotFoundError('THING_NOT_FOUND', 'Thing not found');
          res.json({ id });
        });
        express.get('/boom', () => {
          throw new Error('secret internals');
        });
        express.use('/styled', errorStyle('status'));
        express.get('/styled/missing', () => {
          throw new NotFoundError('NOPE', 'Nothing here');
        });
      },
    });
    server = await listen(app, 0);
    url = `http://127.0.0.1:${portOf(server)}`;
  });
  afterAll(() => closeServer(server));

  test('a zod validation failure is a 400 naming the failing fields', async () => {
    const res = await request(url).post('/things').send({ name: '', size: 1.5, extra: true });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    expect(res.body.details.map((d: { path: string }) => d.path).sort()).toEqual(['', 'name', 'size']);
    expect(res.body.message).toMatch(/name/);
  });

  test('an idle keep-alive connection is kept past Node\'s 5 s default, and the answer says for how long (65 s)', async () => {
    const { default: http } = await import('node:http');
    const agent = new http.Agent({ keepAlive: true });
    const get = () =>
      new Promise<{ reused: boolean; keepAlive?: string }>((resolve, reject) => {
        const req = http.get(`${url}/things/1`, { agent }, (res) => {
          res.resume();
          res.on('end', () => resolve({ reused: req.reusedSocket, keepAlive: res.headers['keep-alive'] as string | undefined }));
        });
        req.on('error', reject);
      });
    try {
      expect(await get()).toEqual({ reused: false, keepAlive: 'timeout=65' });
      await new Promise((resolve) => setTimeout(resolve, 5_500));
      expect(await get()).toEqual({ reused: true, keepAlive: 'timeout=65' });
    } finally {
      agent.destroy();
    }
  }, 15_000);

  test('malformed JSON is a 400, an oversized body a 413', async () => {
    const bad = await request(url).post('/things').set('content-type', 'application/json').send('{"name":');
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('MALFORMED_JSON');
    const big = await request(url).post('/things').send({ name: 'x'.repeat(2048), size: 1 });
    expect(big.status).toBe(413);
    expect(big.body.code).toBe('PAYLOAD_TOO_LARGE');
  });

  test.each(['0', '-1', '1.5', 'abc', '99999999999'])('id %s is a 400, not a 500', async (id) => {
    const res = await request(url).get(`/things/${id}`);
    expect(res.status).toBe(400);
    expect(res.body.details[0].path).toBe('id');
  });

  test('a known error keeps its status, code and message', async () => {
    const res = await request(url).get('/things/404');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 'THING_NOT_FOUND', message: 'Thing not found' });
  });

  test('an unexpected error is a 500 without internals', async () => {
    const res = await request(url).get('/boom');
    expect(res.status).toBe(500);
    expect(JSON.stringify(res.body)).not.toMatch(/secret/);
  });

  test('a route family with the "status" style answers { status: "error", message }', async () => {
    const res = await request(url).get('/styled/missing');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ status: 'error', message: 'Nothing here' });
  });

  test('the request id is kept from x-request-id or created', async () => {
    const kept = await request(url).get('/healthz').set('x-request-id', 'req-42');
    expect(kept.headers['x-request-id']).toBe('req-42');
    const created = await request(url).get('/healthz');
    expect(created.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  test('/readyz answers 503 naming the failing check', async () => {
    ready = false;
    const res = await request(url).get('/readyz');
    ready = true;
    expect(res.status).toBe(503);
    expect(res.body.checks.database).toMatchObject({ ok: false, error: 'down' });
  });

  test('helmet headers are set', async () => {
    const res = await request(url).get('/healthz');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('access log', () => {
  test('a request leaves one line with its id, method, url, status and user agent, and none of its headers (no token or cookie in a log)', async () => {
    const lines: Record<string, unknown>[] = [];
    const { pino } = await import('pino');
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    const app = createHttpApp({
      logger,
      metrics: createMetrics('kit-log-test'),
      readiness: [],
      routes: (express) => {
        express.get('/hello', (_req, res) => {
          res.json({ ok: true });
        });
      },
    });
    const server = await listen(app, 0);
    try {
      await request(`http://127.0.0.1:${portOf(server)}`)
        .get('/hello?x=1')
        .set('authorization', 'Bearer secret-token')
        .set('cookie', 'session=secret-cookie')
        .set('user-agent', 'kit-test-agent')
        .set('x-request-id', 'req-123')
        .expect(200);
    } finally {
      await closeServer(server);
    }
    const access = lines.filter((line) => line.req !== undefined);
    expect(access).toHaveLength(1);
    expect(access[0]).toMatchObject({ req: { id: 'req-123', method: 'GET', url: '/hello?x=1', userAgent: 'kit-test-agent' }, res: { statusCode: 200 } });
    expect(JSON.stringify(lines)).not.toMatch(/secret-token|secret-cookie|authorization|cookie/);
  });
});
