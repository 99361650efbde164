import http from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import request from 'supertest';
import { io as connectSocket, type Socket } from 'socket.io-client';
import { hashPassword } from '@academy/auth';
import { startService, type RunningService } from '@academy/service';
import { bearer, dropTestDatabase, forgedTokens, testConfig, tokenFor } from '@academy/testing';
// The component test runs the real academic service in-process behind the gateway.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { academicService } from '../../academic/src/service.ts';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { User } from '../../academic/src/shared/entities/user.entity.ts';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { SettingsSchema } from '../../academic/src/config.ts';
import { startGateway, type RunningGateway } from '../src/gateway.ts';
import { deadUrl, gatewayConfig, notificationsStandIn, silentUpstream } from './helpers.ts';

const withoutRequestId = (body: Record<string, unknown>) => ({ ...body, requestId: undefined });

describe('gateway in front of the real academic service', () => {
  let academic: RunningService;
  let gateway: RunningGateway;
  let notifications: Awaited<ReturnType<typeof notificationsStandIn>>;
  let slow: Awaited<ReturnType<typeof silentUpstream>>;

  beforeAll(async () => {
    academic = await startService(academicService, await testConfig('gateway_academic', SettingsSchema));
    const em = academic.ctx.orm.em.fork();
    em.create(User, { email: 'ana@academy.test', passwordHash: await hashPassword('ana-pass'), role: 'user', employeeId: 4 });
    await em.flush();
    notifications = await notificationsStandIn();
    slow = await silentUpstream();
    gateway = await startGateway(
      gatewayConfig({
        ACADEMIC_URL: academic.url,
        HOURS_BANK_URL: await deadUrl(),
        NOTIFICATIONS_URL: notifications.url,
        CORS_ORIGINS: 'https://app.academy.test',
        BODY_LIMIT_BYTES: '1024',
      }),
    );
  });
  afterAll(async () => {
    await gateway.stop();
    await notifications.close();
    await slow.close();
    await academic.stop();
    await dropTestDatabase(academic.ctx.config.DATABASE_URL);
  });

  describe('logins through the gateway', () => {
    test('login and refresh are public; the access token then opens /me, as it does at academic directly', async () => {
      const login = await request(gateway.url).post('/api/v2/auth/login').send({ email: 'ana@academy.test', password: 'ana-pass' });
      expect(login.status).toBe(200);
      const viaGateway = await request(gateway.url).get('/api/v2/auth/me').set('authorization', `Bearer ${login.body.accessToken}`);
      const direct = await request(academic.url).get('/api/v2/auth/me').set('authorization', `Bearer ${login.body.accessToken}`);
      expect(viaGateway.status).toBe(200);
      expect(viaGateway.body).toEqual(direct.body);
      expect(viaGateway.body.user).toMatchObject({ email: 'ana@academy.test', role: 'user', employeeId: 4 });

      const refreshed = await request(gateway.url).post('/api/v2/auth/refresh').send({ refreshToken: login.body.refreshToken });
      expect(refreshed.status).toBe(200);
      expect((await request(gateway.url).post('/api/v2/auth/logout').send({ refreshToken: refreshed.body.refreshToken })).status).toBe(204);
    });

    test('a wrong password is the service’s own 401, passed through', async () => {
      const res = await request(gateway.url).post('/api/v2/auth/login').send({ email: 'ana@academy.test', password: 'wrong' });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('INVALID_CREDENTIALS');
    });
  });

  describe('bad tokens: 401 at the gateway and at the service, never 500', () => {
    const tokens = Object.entries(forgedTokens());

    test.each(tokens)('a token that is %s', async (flaw, token) => {
      const viaGateway = await request(gateway.url).get('/api/v2/auth/me').set('authorization', `Bearer ${token}`);
      expect(viaGateway.status).toBe(401);
      expect(withoutRequestId(viaGateway.body)).toEqual({ code: 'UNAUTHORIZED', message: 'Unauthorized', requestId: undefined });
      const direct = await request(academic.url).get('/api/v2/auth/me').set('authorization', `Bearer ${token}`);
      expect(direct.status).toBe(401);
      expect(withoutRequestId(direct.body)).toEqual(withoutRequestId(viaGateway.body));
    });

    test('the 401 of each route family has the body its service answers', async () => {
      const blocks = await request(gateway.url).get('/api/v2/blocks/pending');
      expect(blocks.status).toBe(401);
      expect(blocks.body).toEqual({ code: 'UNAUTHORIZED', message: 'Unauthorized', requestId: expect.any(String) });

      const registration = await request(gateway.url).put('/api/v2/registration/assign-students-to-event').set('authorization', 'Bearer nope').send({ eventId: 1 });
      expect(registration.status).toBe(401);
      expect(registration.body).toMatchObject({ status: 'error', message: 'Invalid or expired token' });

      const hoursBank = await request(gateway.url).get('/api/v2/hours-bank/1');
      expect(hoursBank.status).toBe(401);
      expect(hoursBank.body).toMatchObject({ code: 'UNAUTHORIZED', message: 'Unauthorized' });

      const tokenRemoval = await request(gateway.url).delete('/api/v2/notifications/token/device-1');
      expect(tokenRemoval.status).toBe(401);
      expect(tokenRemoval.body).toMatchObject({ success: false, message: 'Unauthorized' });

      for (const path of ['/api/students/administrative', '/api/v2/school-courses', '/api/v2/incident/my', '/api/v2/timerecord/open', '/api/v2/users', '/api/v2/calendar-events/1']) {
        expect((await request(gateway.url).get(path)).status).toBe(401);
      }
    });
  });

  describe('proxying', () => {
    test('the request id is kept when given, created otherwise, and reaches the service', async () => {
      const kept = await request(gateway.url).delete('/api/v2/notifications/token/d1').set(bearer({ sub: '3', role: 'user' })).set('x-request-id', 'req-abc-1');
      expect(kept.status).toBe(200);
      expect(kept.headers['x-request-id']).toBe('req-abc-1');
      expect(kept.body.headers['x-request-id']).toBe('req-abc-1');
      expect(kept.body.headers.authorization).toMatch(/^Bearer /);

      const created = await request(gateway.url).delete('/api/v2/notifications/token/d1').set(bearer({ sub: '3', role: 'user' }));
      expect(created.body.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(created.headers['x-request-id']).toBe(created.body.headers['x-request-id']);
    });

    test('push send passes through without a bearer token, carrying its x-api-key', async () => {
      const res = await request(gateway.url).post('/api/v2/push-notifications/send').set('x-api-key', 'k-123').send({ userIds: [1], body: 'hi' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ method: 'POST', url: '/api/v2/push-notifications/send', headers: { 'x-api-key': 'k-123' } });
    });

    test('a client cannot forge its address: the service gets the address the gateway saw', async () => {
      // Only loopback hops are trusted, so the client is the right-most other address; the chain before it is dropped.
      const res = await request(gateway.url).get('/api/v2/notifications/x').set(bearer({ sub: '3', role: 'user' })).set('x-forwarded-for', '6.6.6.6, 7.7.7.7');
      expect(res.body.headers['x-forwarded-for']).toBe('7.7.7.7');
    });

    test('a stopped upstream answers a JSON 503 in under a second', async () => {
      const started = performance.now();
      const res = await request(gateway.url).get('/api/v2/hours-bank/1').set(bearer({ sub: '1', role: 'admin' }));
      expect(performance.now() - started).toBeLessThan(1000);
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ code: 'SERVICE_UNAVAILABLE', message: 'The hours-bank service is unavailable', requestId: expect.any(String) });
    });

    test('an upstream that never answers is a JSON 504 after the upstream timeout', async () => {
      const impatient = await startGateway(gatewayConfig({ INCIDENTS_URL: slow.url, UPSTREAM_TIMEOUT_MS: '300' }));
      try {
        const started = performance.now();
        const res = await request(impatient.url).get('/api/v2/incident/my').set(bearer({ sub: '1', role: 'user' }));
        expect(performance.now() - started).toBeLessThan(2000);
        expect(res.status).toBe(504);
        expect(res.body).toMatchObject({ code: 'UPSTREAM_TIMEOUT', message: 'The incidents service did not answer in time' });
      } finally {
        await impatient.stop();
      }
    });

    test('Socket.IO long-polling held open past the upstream timeout is not cut off', async () => {
      const slowPinger = await notificationsStandIn({ pingInterval: 800 });
      const impatient = await startGateway(gatewayConfig({ NOTIFICATIONS_URL: slowPinger.url, UPSTREAM_TIMEOUT_MS: '300' }));
      try {
        const token = tokenFor({ sub: '8', role: 'user' });
        const handshake = await request(impatient.url).get('/socket.io/?EIO=4&transport=polling').set('authorization', `Bearer ${token}`);
        const { sid } = JSON.parse(handshake.text.slice(1)) as { sid: string };
        const started = performance.now();
        const held = await request(impatient.url).get(`/socket.io/?EIO=4&transport=polling&sid=${sid}`).set('authorization', `Bearer ${token}`);
        expect(performance.now() - started).toBeGreaterThan(300);
        expect(held.status).toBe(200);
        expect(held.text).toBe('2');
      } finally {
        await impatient.stop();
        await slowPinger.close();
      }
    });

    test('a body over the limit is a 413 before anything is proxied', async () => {
      const res = await request(gateway.url).post('/api/v2/push-notifications/send').set('x-api-key', 'k').send({ body: 'x'.repeat(2048), userIds: [1] });
      expect(res.status).toBe(413);
      expect(res.body).toMatchObject({ success: false, code: 'PAYLOAD_TOO_LARGE' });
    });

    test('a streamed body without Content-Length is a 411 rather than an unbounded upload', async () => {
      const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = http.request(`${gateway.url}/api/v2/push-notifications/send`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': 'k' } }, (res) => {
          let text = '';
          res.on('data', (chunk) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        });
        req.on('error', reject);
        req.write('{"userIds":[1],');
        req.end('"body":"hi"}');
      });
      expect(status).toBe(411);
      expect(JSON.parse(body)).toMatchObject({ success: false, code: 'LENGTH_REQUIRED' });
    });

    test('dot segments are refused with 400 and unknown paths are a JSON 404', async () => {
      expect((await request(gateway.url).get('/api/v2/auth/login/%2e%2e/me')).status).toBe(400);
      const unknown = await request(gateway.url).get('/api/v3/nothing');
      expect(unknown.status).toBe(404);
      expect(unknown.body.code).toBe('ROUTE_NOT_FOUND');
    });

    test('CORS answers allowed origins only, and preflights without a token', async () => {
      const allowed = await request(gateway.url).options('/api/v2/auth/me').set('origin', 'https://app.academy.test').set('access-control-request-method', 'GET');
      expect(allowed.status).toBe(204);
      expect(allowed.headers['access-control-allow-origin']).toBe('https://app.academy.test');
      const other = await request(gateway.url).options('/api/v2/auth/me').set('origin', 'https://evil.test').set('access-control-request-method', 'GET');
      expect(other.headers['access-control-allow-origin']).toBeUndefined();
    });

    test('security headers are set by helmet on the gateway\'s own answers, its refusals on proxied routes included', async () => {
      const res = await request(gateway.url).get('/healthz');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-security-policy']).toBeDefined();
      const refused = await request(gateway.url).get('/api/v2/auth/me');
      expect(refused.status).toBe(401);
      expect(refused.headers['x-content-type-options']).toBe('nosniff');
      expect(refused.headers['content-security-policy']).toBeDefined();
    });

    test('CORS headers are on proxied answers for an allowed origin', async () => {
      const res = await request(gateway.url).get('/api/v2/auth/me').set('origin', 'https://app.academy.test');
      expect(res.headers['access-control-allow-origin']).toBe('https://app.academy.test');
      expect(res.headers['access-control-expose-headers']).toContain('x-request-id');
    });

    test('CORS lets a browser send Idempotency-Key on a write and read Idempotent-Replayed and Retry-After', async () => {
      const preflight = await request(gateway.url)
        .options('/api/v2/subjects')
        .set('origin', 'https://app.academy.test')
        .set('access-control-request-method', 'POST')
        .set('access-control-request-headers', 'authorization,content-type,idempotency-key');
      expect(preflight.status).toBe(204);
      expect(preflight.headers['access-control-allow-headers']?.split(',')).toContain('idempotency-key');
      const res = await request(gateway.url).get('/api/v2/auth/me').set('origin', 'https://app.academy.test');
      expect(res.headers['access-control-expose-headers']?.split(',')).toEqual(expect.arrayContaining(['idempotent-replayed', 'retry-after']));
    });

    test('Idempotency-Key passes through to the service: a retried write is replayed, not done twice', async () => {
      const admin = bearer({ role: 'admin', sub: '1' });
      const create = () =>
        request(gateway.url).post('/api/v2/subjects').set(admin).set('Idempotency-Key', 'gw-subject-1').send({ name: 'Gateway retry subject', blocks: ['One'] });
      const first = await create();
      const again = await create();
      expect(first.status).toBe(201);
      expect(again.status).toBe(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body).toEqual(first.body);
      const [row] = await academic.ctx.orm.em.fork().execute<{ n: number }[]>(`select count(*)::int as n from subjects where name = 'Gateway retry subject'`);
      expect(row!.n).toBe(1);
    });
  });

  describe('WebSocket /socket.io', () => {
    const connect = (options: { token?: string; header?: boolean }) =>
      new Promise<{ connected: boolean; hello?: unknown; error?: string }>((resolve) => {
        const socket: Socket = connectSocket(gateway.url, {
          transports: ['websocket'],
          reconnection: false,
          timeout: 3000,
          query: options.token && !options.header ? { token: options.token } : undefined,
          extraHeaders: options.token && options.header ? { authorization: `Bearer ${options.token}` } : undefined,
        });
        socket.on('hello', (hello) => {
          socket.close();
          resolve({ connected: true, hello });
        });
        socket.on('connect_error', (error) => {
          socket.close();
          resolve({ connected: false, error: error.message });
        });
      });

    test('connects through the gateway with a valid token in the header, passed on as is', async () => {
      const token = tokenFor({ sub: '8', role: 'user' });
      expect(await connect({ token, header: true })).toMatchObject({ connected: true, hello: { authorization: `Bearer ${token}` } });
    });

    test('a token in the query string is neither read nor passed on: the service sees no credentials (and refuses such a socket itself)', async () => {
      const viaQuery = await connect({ token: tokenFor({ sub: '8', role: 'user' }) });
      expect(viaQuery).toMatchObject({ connected: true, hello: { authorization: null } });
      expect((viaQuery.hello as { query: Record<string, string> }).query.token).toBeUndefined();
      expect(await connect({ token: 'garbage' })).toMatchObject({ connected: true, hello: { authorization: null } });
    });

    test('an upgrade with no token is passed on for the service to check the handshake’s auth.token (the stand-in sees no credentials)', async () => {
      expect(await connect({})).toMatchObject({ connected: true, hello: { authorization: null } });
    });

    test('long-polling requests of /socket.io are checked (the Authorization header, never ?token=) and proxied too', async () => {
      const token = tokenFor({ sub: '8', role: 'user' });
      const polling = await request(gateway.url).get('/socket.io/?EIO=4&transport=polling').set('authorization', `Bearer ${token}`);
      expect(polling.status).toBe(200);
      expect(polling.text).toMatch(/^0\{"sid"/);
      expect((await request(gateway.url).get('/socket.io/?EIO=4&transport=polling')).status).toBe(401);
      expect((await request(gateway.url).get(`/socket.io/?EIO=4&transport=polling&token=${token}`)).status).toBe(401);
    });

    test('is refused on the upgrade itself with a bad token', async () => {
      expect((await connect({ token: 'garbage', header: true })).connected).toBe(false);
      expect((await connect({ token: tokenFor({ sub: '8', role: 'user' }) + 'x', header: true })).connected).toBe(false);
    });
  });

  describe('own endpoints', () => {
    test('/healthz is ok and /readyz reports Redis and each service, not ready while one is down', async () => {
      expect((await request(gateway.url).get('/healthz')).body).toEqual({ status: 'ok' });
      await academic.ctx.broker.start();
      const ready = await request(gateway.url).get('/readyz');
      expect(ready.status).toBe(503);
      expect(ready.body.checks.cache.ok).toBe(true);
      expect(ready.body.checks.academic.ok).toBe(true);
      expect(ready.body.checks['hours-bank'].ok).toBe(false);
    });

    test('/metrics counts upstream answers by service and status', async () => {
      await request(gateway.url).get('/api/v2/hours-bank/1').set(bearer({ sub: '1', role: 'admin' }));
      const res = await request(gateway.url).get('/metrics');
      expect(res.text).toMatch(/gateway_upstream_duration_seconds_count\{[^}]*service="hours-bank"[^}]*status="503"/);
    });

    test('/api/docs serves Swagger UI over an OpenAPI document with every route of the interface', async () => {
      const ui = await request(gateway.url).get('/api/docs/');
      expect(ui.status).toBe(200);
      expect(ui.text).toContain('swagger-ui');
      expect(ui.headers['content-security-policy']).toContain("script-src 'self'");
      expect(ui.headers['content-security-policy']).not.toContain('upgrade-insecure-requests');
      const doc = await request(gateway.url).get('/api/docs/openapi.json');
      expect(doc.body.openapi).toBe('3.1.0');
      const paths = Object.keys(doc.body.paths);
      for (const path of [
        '/api/v2/auth/login',
        '/api/v2/auth/refresh',
        '/api/v2/auth/logout',
        '/api/v2/auth/me',
        '/api/v2/blocks/pending',
        '/api/v2/blocks/student-block/{studentBlockId}/review',
        '/api/v2/blocks/{blockId}/close',
        '/api/v2/incident/my',
        '/api/v2/incident/{id}/admin-thread',
        '/api/v2/timerecord/open',
        '/api/v2/push-notifications/send',
        '/api/v2/notifications/token',
        '/api/v2/notifications/token/{deviceId}',
      ]) {
        expect(paths).toContain(path);
      }
    });
  });
});
