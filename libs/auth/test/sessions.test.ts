import { randomBytes, randomUUID, sign, type KeyObject } from 'node:crypto';
import type { Socket } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from '@jest/globals';
import express from 'express';
import request from 'supertest';
import { Redis } from 'ioredis';
import { urls } from '@academy/infra';
import { createSessionRevocations, REVOCATION_KEY_PREFIX, followRevocations, onSessionsEnded, createTokenSigner, createTokenVerifier, generateKeyPairFiles, loadKeyRing, requireAuth, type SessionRevocations } from '../src/index.ts';

const options = { issuer: 'academy', audience: 'academy-api' };
const dir = mkdtempSync(path.join(tmpdir(), 'auth-sessions-'));
generateKeyPairFiles(dir, 'k1');
const ring = loadKeyRing(dir, ['k1'], 'k1');
const signer = createTokenSigner(ring, options);
const publicRing = loadKeyRing(dir, ['k1']);

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
/** A token signed with the real key whose payload is exactly `payload` (iss/aud added). */
function signed(payload: Record<string, unknown>): string {
  const data = `${b64({ alg: 'ES256', typ: 'JWT', kid: 'k1' })}.${b64({ iss: options.issuer, aud: options.audience, ...payload })}`;
  return `${data}.${sign('sha256', Buffer.from(data), { key: ring.signing!.privateKey as KeyObject, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`;
}

describe('claims are validated after the signature', () => {
  const verifier = createTokenVerifier(publicRing, { ...options, maxTtlSeconds: 900 });
  const now = Math.floor(Date.now() / 1000);
  const good = { sub: '1', role: 'admin', iat: now, exp: now + 600 };

  test('a well-formed token passes', () => {
    expect(verifier.verify(signed(good))).toMatchObject({ sub: '1', role: 'admin' });
  });

  test.each([
    ['sub "abc"', { sub: 'abc' }],
    ['sub " 1"', { sub: ' 1' }],
    ['sub "0x1"', { sub: '0x1' }],
    ['sub "01"', { sub: '01' }],
    ['sub "1e0"', { sub: '1e0' }],
    ['sub "0"', { sub: '0' }],
    ['sub past 2^31', { sub: '2147483648' }],
    ['sub a number', { sub: 1 }],
    ['an unknown role', { role: 'root' }],
    ['employeeId a string', { employeeId: '3' }],
    ['sid not a uuid', { sid: 'abc' }],
    ['no iat', { iat: undefined }],
    ['iat a minute ahead', { iat: now + 60, exp: now + 600 }],
    ['a lifetime past the maximum', { exp: now + 901 }],
    ['exp millions of years ahead', { exp: now + 1e14 }],
  ])('a signed token with %s is refused', (_flaw, change) => {
    expect(verifier.verify(signed({ ...good, ...change }))).toBeNull();
  });

  test('iat a few seconds ahead (clock skew) passes', () => {
    expect(verifier.verify(signed({ ...good, iat: now + 5 }))?.sub).toBe('1');
  });

  test('requireAuth answers 401, not 500, to a signed token with sub "abc"', async () => {
    const app = express();
    app.get('/me', requireAuth(verifier), (_req, res) => res.json(res.locals.user));
    app.use((error: { status?: number }, _req: express.Request, res: express.Response, _next: express.NextFunction) => res.status(error.status ?? 500).end());
    expect((await request(app).get('/me').set('authorization', `Bearer ${signed({ ...good, sub: 'abc' })}`)).status).toBe(401);
    expect((await request(app).get('/me').set('authorization', `Bearer ${signed(good)}`)).body.userId).toBe(1);
  });
});

describe('ended sessions (Redis)', () => {
  const redis = new Redis(urls('test').redis, { lazyConnect: false, maxRetriesPerRequest: 1 });
  const keyPrefix = `test:revoked:${randomBytes(4).toString('hex')}`;
  const revocations = createSessionRevocations(redis, { ttlSeconds: 960, keyPrefix });
  afterAll(() => redis.disconnect());

  const cachedVerifier = (extra: { revocations?: SessionRevocations; revocationCheckMs?: number; onRevocationError?: (error: unknown) => void } = {}) =>
    createTokenVerifier(publicRing, { ...options, cache: { maxEntries: 100, maxAgeMs: 60_000 }, revocations, revocationCheckMs: 200, ...extra });

  test('the signer puts the session id in the token and the verifier returns it', () => {
    const sid = randomUUID();
    expect(cachedVerifier().verify(signer.sign({ sub: '4', role: 'user', sid }, 60))).toMatchObject({ sub: '4', sid });
  });

  test('a revoked session is refused within the revocation check interval, even while the token is cached', async () => {
    const verifier = cachedVerifier();
    const sid = randomUUID();
    const other = randomUUID();
    const token = signer.sign({ sub: '5', role: 'user', sid }, 60);
    const sibling = signer.sign({ sub: '5', role: 'user', sid: other }, 60);
    expect((await verifier.authenticate(token))?.sub).toBe('5');
    await revocations.revokeSessions([sid]);
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(await verifier.authenticate(token)).toBeNull();
    expect((await verifier.authenticate(sibling))?.sub).toBe('5'); // another session of the same user lives on
    expect(verifier.verify(token)?.sub).toBe('5'); // verify alone checks only signature and claims
  });

  test('a token without a session id is not looked up (it has no session to end)', async () => {
    let lookups = 0;
    const counting: SessionRevocations = { ...revocations, isRevoked: (token) => (lookups++, revocations.isRevoked(token)) };
    const verifier = cachedVerifier({ revocations: counting, revocationCheckMs: 0 });
    expect((await verifier.authenticate(signer.sign({ sub: '6', role: 'user' }, 60)))?.sub).toBe('6');
    expect(lookups).toBe(0);
  });

  test('revocations expire with the tokens they name', async () => {
    const sid = randomUUID();
    await revocations.revokeSessions([sid]);
    const ttl = await redis.ttl(`${keyPrefix}:${sid}`);
    expect(ttl).toBeGreaterThan(900);
    expect(ttl).toBeLessThanOrEqual(960);
  });

  test('concurrent requests with one token share one lookup', async () => {
    let lookups = 0;
    const counting: SessionRevocations = { ...revocations, isRevoked: (token) => (lookups++, revocations.isRevoked(token)) };
    const verifier = cachedVerifier({ revocations: counting, revocationCheckMs: 60_000 });
    const token = signer.sign({ sub: '7', role: 'user', sid: randomUUID() }, 60);
    const results = await Promise.all(Array.from({ length: 50 }, () => verifier.authenticate(token)));
    expect(results.every((claims) => claims?.sub === '7')).toBe(true);
    expect(lookups).toBe(1);
  });

  test('when the store cannot answer, the token is accepted and the failure reported', async () => {
    const errors: unknown[] = [];
    const failing: SessionRevocations = { ...revocations, isRevoked: () => Promise.reject(new Error('redis away')) };
    const verifier = cachedVerifier({ revocations: failing, onRevocationError: (error) => errors.push(error) });
    expect((await verifier.authenticate(signer.sign({ sub: '8', role: 'user', sid: randomUUID() }, 60)))?.sub).toBe('8');
    expect(errors).toHaveLength(1);
  });

  test('every revocation is announced to the listeners, who find its keys already written', async () => {
    const subscriber = new Redis(urls('test').redis);
    const heard: { ids: string[]; stored: number }[] = [];
    const listener = onSessionsEnded(subscriber, {
      keyPrefix,
      onEnded: (ids) => void Promise.all(ids.map((sid) => revocations.isRevoked({ sid }))).then((found) => heard.push({ ids, stored: found.filter(Boolean).length })),
    });
    try {
      await subscriber.ping(); // subscribed (answered after the SUBSCRIBE)
      const [first, second] = [randomUUID(), randomUUID()];
      await revocations.revokeSessions([first, second, first]);
      const deadline = Date.now() + 2_000;
      while (heard.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(heard).toEqual([{ ids: [first, second], stored: 2 }]);
    } finally {
      await listener.close();
      subscriber.disconnect();
    }
  });

  test('after its connection is lost and back, the listener is told to check everything again (pub/sub replays nothing)', async () => {
    const subscriber = new Redis(urls('test').redis);
    let resubscribed = 0;
    const heard: string[][] = [];
    const listener = onSessionsEnded(subscriber, { keyPrefix, onEnded: (ids) => heard.push(ids), onResubscribed: () => resubscribed++ });
    try {
      await subscriber.ping();
      expect(resubscribed).toBe(0);
      const back = new Promise((resolve) => subscriber.once('ready', resolve));
      (subscriber as unknown as { stream: Socket }).stream.destroy();
      await back;
      expect(resubscribed).toBe(1);
      // and it is subscribed again
      await subscriber.ping();
      const sid = randomUUID();
      await revocations.revokeSessions([sid]);
      const deadline = Date.now() + 2_000;
      while (heard.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(heard).toEqual([[sid]]);
    } finally {
      await listener.close();
      subscriber.disconnect();
    }
  });

  test('a verifier following the announcements refuses a revoked session at once, long before its next check', async () => {
    const verifier = cachedVerifier({ revocationCheckMs: 60_000 });
    const feed = followRevocations(redis, verifier);
    const heard: string[][] = [];
    feed.onEnded((ids) => heard.push(ids));
    try {
      await feed.subscribed;
      const sid = randomUUID();
      const token = signer.sign({ sub: '9', role: 'user', sid }, 60);
      const sibling = signer.sign({ sub: '9', role: 'user', sid: randomUUID() }, 60);
      expect((await verifier.authenticate(token))?.sub).toBe('9');
      expect((await verifier.authenticate(sibling))?.sub).toBe('9');
      await createSessionRevocations(redis, { ttlSeconds: 960, keyPrefix: REVOCATION_KEY_PREFIX }).revokeSessions([sid]);
      const deadline = Date.now() + 1_000;
      while ((await verifier.authenticate(token)) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(await verifier.authenticate(token)).toBeNull();
      expect((await verifier.authenticate(sibling))?.sub).toBe('9');
      // the feed's other listeners (notifications' sockets) hear it too
      expect(heard).toContainEqual([sid]);
    } finally {
      await feed.close();
    }
  });

  test('recheckSessions makes every remembered token ask the store again (after announcements may have been lost)', async () => {
    const verifier = cachedVerifier({ revocationCheckMs: 60_000 });
    const sid = randomUUID();
    const token = signer.sign({ sub: '10', role: 'user', sid }, 60);
    expect((await verifier.authenticate(token))?.sub).toBe('10');
    await revocations.revokeSessions([sid]); // on this test's own prefix: no announcement reaches this verifier
    expect((await verifier.authenticate(token))?.sub).toBe('10'); // remembered for a minute
    verifier.recheckSessions();
    expect(await verifier.authenticate(token)).toBeNull();
  });
});
