import { randomUUID, sign, type KeyObject } from 'node:crypto';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import request from 'supertest';
import { Redis } from 'ioredis';
import { createSessionRevocations, createTokenSigner, loadKeyRing } from '@academy/auth';
import { TEST_AUDIENCE, TEST_ISSUER, TEST_KEYS_DIR, TEST_KID, testUrls, tokenFor } from '@academy/testing';
import { startGateway, type RunningGateway } from '../src/gateway.ts';
import { gatewayConfig, notificationsStandIn } from './helpers.ts';

const ring = loadKeyRing(TEST_KEYS_DIR, [TEST_KID], TEST_KID);
const signer = createTokenSigner(ring, { issuer: TEST_ISSUER, audience: TEST_AUDIENCE });
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
/** Correctly signed with the test key; only the claims are odd. */
function signedWith(claims: Record<string, unknown>): string {
  const now = Math.floor(Date.now() / 1000);
  const payload = { sub: '1', role: 'admin', iss: TEST_ISSUER, aud: TEST_AUDIENCE, iat: now, exp: now + 600, ...claims };
  const data = `${b64({ alg: 'ES256', typ: 'JWT', kid: TEST_KID })}.${b64(payload)}`;
  return `${data}.${sign('sha256', Buffer.from(data), { key: ring.signing!.privateKey as KeyObject, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`;
}

/** Sends raw bytes and returns the raw answer (for requests supertest cannot build). */
function raw(url: string, payload: string): Promise<string> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1', () => socket.end(payload));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk));
    socket.on('end', () => resolve(answer));
    socket.on('error', (error) => (answer ? resolve(answer) : reject(error)));
  });
}

describe('gateway edge hardening', () => {
  let notifications: Awaited<ReturnType<typeof notificationsStandIn>>;
  let gateway: RunningGateway;
  const redis = new Redis(testUrls.redis, { maxRetriesPerRequest: 1 });
  const revocations = createSessionRevocations(redis, { ttlSeconds: 960 });

  beforeAll(async () => {
    notifications = await notificationsStandIn();
    gateway = await startGateway(gatewayConfig({ NOTIFICATIONS_URL: notifications.url, ACADEMIC_URL: notifications.url, TOKEN_REVOCATION_CHECK_MS: '300' }));
  });
  afterAll(async () => {
    await gateway.stop();
    await notifications.close();
    redis.disconnect();
  });

  describe('claims are checked, not trusted', () => {
    test.each([
      ['sub "abc"', { sub: 'abc' }],
      ['sub " 1"', { sub: ' 1' }],
      ['sub "0x1"', { sub: '0x1' }],
      ['an unknown role', { role: 'root' }],
      ['iat an hour ahead', { iat: Math.floor(Date.now() / 1000) + 3600, exp: Math.floor(Date.now() / 1000) + 3900 }],
      ['exp millions of years ahead', { exp: Math.floor(Date.now() / 1000) + 1e14 }],
      ['a lifetime over the maximum', { exp: Math.floor(Date.now() / 1000) + 3600 }],
    ])('a correctly signed token with %s is a 401 at the gateway', async (_flaw, claims) => {
      const res = await request(gateway.url).get('/api/v2/auth/me').set('authorization', `Bearer ${signedWith(claims)}`);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ code: 'UNAUTHORIZED', message: 'Unauthorized', requestId: expect.any(String) });
    });
  });

  describe('ended sessions', () => {
    test('a token whose session is revoked is refused within the check interval, while another session of the user goes on', async () => {
      const sid = randomUUID();
      const token = signer.sign({ sub: '31', role: 'user', sid }, 600);
      const other = signer.sign({ sub: '31', role: 'user', sid: randomUUID() }, 600);
      const me = (bearer: string) => request(gateway.url).get('/api/v2/notifications/x').set('authorization', `Bearer ${bearer}`);
      expect((await me(token)).status).toBe(200);
      await revocations.revokeSessions([sid]);
      await new Promise((resolve) => setTimeout(resolve, 400));
      const refused = await me(token);
      expect(refused.status).toBe(401);
      expect(refused.body).toMatchObject({ success: false, message: 'Unauthorized' });
      expect((await me(other)).status).toBe(200);
    });

    test('an announced revocation is honoured at once, even by a gateway that checks each token only every minute', async () => {
      const patient = await startGateway(gatewayConfig({ NOTIFICATIONS_URL: notifications.url, ACADEMIC_URL: notifications.url, TOKEN_REVOCATION_CHECK_MS: '60000' }));
      try {
        const sid = randomUUID();
        const token = signer.sign({ sub: '32', role: 'user', sid }, 600);
        const me = () => request(patient.url).get('/api/v2/notifications/x').set('authorization', `Bearer ${token}`);
        expect((await me()).status).toBe(200); // remembered as not revoked for a minute
        await revocations.revokeSessions([sid]);
        const deadline = Date.now() + 1_000;
        let status = (await me()).status;
        while (status === 200 && Date.now() < deadline) status = (await me()).status;
        expect(status).toBe(401);
      } finally {
        await patient.stop();
      }
    });
  });

  describe('oversized headers', () => {
    const huge = `Bearer ${'A'.repeat(137 * 1024)}`;

    test('a 137 KB bearer header is a 431 with a JSON body in the style of the route’s 401', async () => {
      const byDefault = await request(gateway.url).get('/api/v2/auth/me').set('authorization', huge);
      expect(byDefault.status).toBe(431);
      expect(byDefault.body).toEqual({ code: 'HEADERS_TOO_LARGE', message: 'Request headers are too large', requestId: expect.any(String) });
      const registration = await request(gateway.url).put('/api/v2/registration/assign-students-to-event').set('authorization', huge).send({});
      expect(registration.status).toBe(431);
      expect(registration.body).toMatchObject({ status: 'error', code: 'HEADERS_TOO_LARGE' });
      const notificationsRoute = await request(gateway.url).get('/api/v2/notifications/x').set('authorization', huge);
      expect(notificationsRoute.body).toMatchObject({ success: false, code: 'HEADERS_TOO_LARGE' });
    });

    test('a token of 100 KB is still the route’s 401', async () => {
      const res = await request(gateway.url).get('/api/v2/auth/me').set('authorization', `Bearer ${'A'.repeat(100 * 1024)}`);
      expect(res.status).toBe(401);
    });

    test('headers past the parser’s own limit get a JSON 431 too, not an empty body', async () => {
      const answer = await raw(gateway.url, `GET /api/v2/auth/me HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${'A'.repeat(400 * 1024)}\r\n\r\n`);
      expect(answer).toMatch(/^HTTP\/1\.1 431 /);
      expect(answer).toMatch(/content-type: application\/json/i);
      expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toMatchObject({ code: 'HEADERS_TOO_LARGE', requestId: expect.any(String) });
    });
  });

  describe('request ids', () => {
    test('a well-formed client x-request-id is echoed on answers of every kind; a malformed one is replaced', async () => {
      const token = tokenFor({ sub: '3', role: 'user' });
      const id = '3f2b8c1e-9d4a-4f7e-8a61-0c2d5e7f9b10';
      const proxied = await request(gateway.url).get('/api/v2/notifications/x').set('authorization', `Bearer ${token}`).set('x-request-id', id);
      expect(proxied.headers['x-request-id']).toBe(id);
      const refused = await request(gateway.url).get('/api/v2/auth/me').set('x-request-id', id);
      expect(refused.status).toBe(401);
      expect(refused.headers['x-request-id']).toBe(id);
      expect(refused.body.requestId).toBe(id);
      const own = await request(gateway.url).get('/api/v3/nothing').set('x-request-id', id);
      expect(own.headers['x-request-id']).toBe(id);
      const malformed = await request(gateway.url).get('/api/v2/auth/me').set('x-request-id', 'bad id with spaces');
      expect(malformed.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    });
  });
});
