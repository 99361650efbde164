import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, jest, test } from '@jest/globals';
import express from 'express';
import jwt from 'jsonwebtoken';
import request from 'supertest';
import { z } from 'zod';
import { forgedTokens } from '@academy/testing';
import { createTokenSigner, createTokenVerifier, generateKeyPairFiles, jwtConfigShape, loadKeyRing, verifierFromConfig, requireApiKey, requireAuth, requireOwnerOrAdmin, requireRole, safeEqual, type TokenVerifier } from '../src/index.ts';

const options = { issuer: 'academy', audience: 'academy-api' };
const dir = mkdtempSync(path.join(tmpdir(), 'auth-keys-'));
generateKeyPairFiles(dir, 'k1');
generateKeyPairFiles(dir, 'k2');
const ringK1 = loadKeyRing(dir, ['k1'], 'k1');
const verifier = createTokenVerifier(loadKeyRing(dir, ['k1']), options);

describe('createTokenVerifier', () => {
  test('accepts a token signed by the current key and returns its claims with its expiry', () => {
    const token = createTokenSigner(ringK1, options).sign({ sub: '7', role: 'user', employeeId: 3 }, 60);
    const { iat } = jwt.decode(token) as { iat: number };
    expect(verifier.verify(token)).toEqual({ sub: '7', role: 'user', employeeId: 3, studentId: undefined, exp: iat + 60 });
  });

  test.each(Object.entries(forgedTokens(ringK1, options)))('refuses a token that is %s, without throwing', (_flaw, token) => {
    expect(verifier.verify(token)).toBeNull();
  });

  test('during a rotation, tokens of both listed kids are accepted and a third kid is not', () => {
    generateKeyPairFiles(dir, 'k3');
    const rotating = createTokenVerifier(loadKeyRing(dir, ['k2', 'k1']), options);
    const byK1 = createTokenSigner(ringK1, options).sign({ sub: '1', role: 'admin' }, 60);
    const byK2 = createTokenSigner(loadKeyRing(dir, ['k2', 'k1'], 'k2'), options).sign({ sub: '2', role: 'user' }, 60);
    const byK3 = createTokenSigner(loadKeyRing(dir, ['k3'], 'k3'), options).sign({ sub: '3', role: 'user' }, 60);
    expect(rotating.verify(byK1)?.sub).toBe('1');
    expect(rotating.verify(byK2)?.sub).toBe('2');
    expect(rotating.verify(byK3)).toBeNull();
  });

  test('the cache never serves a token past its exp', () => {
    const cached = createTokenVerifier(loadKeyRing(dir, ['k1']), { ...options, cache: { maxEntries: 10, maxAgeMs: 10 * 60_000 } });
    const token = createTokenSigner(ringK1, options).sign({ sub: '9', role: 'user' }, 60);
    expect(cached.verify(token)?.sub).toBe('9');
    jest.useFakeTimers({ now: Date.now() + 61_000 });
    try {
      expect(cached.verify(token)).toBeNull();
    } finally {
      jest.useRealTimers();
    }
  });

  test('the cache keeps at most maxEntries tokens and still verifies evicted ones', () => {
    const cached = createTokenVerifier(loadKeyRing(dir, ['k1']), { ...options, cache: { maxEntries: 2, maxAgeMs: 60_000 } });
    const signer = createTokenSigner(ringK1, options);
    const tokens = ['1', '2', '3'].map((sub) => signer.sign({ sub, role: 'user' }, 60));
    expect(tokens.map((token) => cached.verify(token)?.sub)).toEqual(['1', '2', '3']);
    const verifySpy = jest.spyOn(jwt, 'verify');
    try {
      expect(cached.verify(tokens[2])?.sub).toBe('3');
      expect(verifySpy).not.toHaveBeenCalled(); // a cached token is not verified again
      expect(cached.verify(tokens[0])?.sub).toBe('1');
      expect(verifySpy).toHaveBeenCalledTimes(1); // the oldest was evicted: verified again
    } finally {
      verifySpy.mockRestore();
    }
  });
});

function appWith(verifierUsed: TokenVerifier, ...handlers: express.RequestHandler[]) {
  const app = express();
  app.get('/r/:userId', requireAuth(verifierUsed, { message: 'Invalid or expired token' }), ...handlers, (_req, res) => {
    res.json({ ok: true, user: res.locals.user });
  });
  app.use((error: { status: number; code: string; message: string }, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    res.status(error.status).json({ code: error.code, message: error.message });
  });
  return app;
}

describe('express middlewares', () => {
  const signer = createTokenSigner(ringK1, options);
  const admin = `Bearer ${signer.sign({ sub: '1', role: 'admin' }, 60)}`;
  const user5 = `Bearer ${signer.sign({ sub: '5', role: 'user' }, 60)}`;

  test('requireAuth answers 401 with the family message when the bearer token is missing or bad', async () => {
    const app = appWith(verifier);
    for (const header of [undefined, 'Bearer', 'Basic abc', 'Bearer garbage']) {
      const res = await request(app).get('/r/1').set(header ? { authorization: header } : {});
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ code: 'UNAUTHORIZED', message: 'Invalid or expired token' });
    }
  });

  test('requireAuth puts the user with a numeric userId on res.locals', async () => {
    const res = await request(appWith(verifier)).get('/r/5').set('authorization', user5);
    expect(res.body.user).toMatchObject({ sub: '5', userId: 5, role: 'user' });
  });

  test('requireRole lets an admin pass and answers 403 to a user, or 401 when asked', async () => {
    expect((await request(appWith(verifier, requireRole('admin'))).get('/r/1').set('authorization', admin)).status).toBe(200);
    expect((await request(appWith(verifier, requireRole('admin'))).get('/r/1').set('authorization', user5)).status).toBe(403);
    expect((await request(appWith(verifier, requireRole('admin', { status: 401 }))).get('/r/1').set('authorization', user5)).status).toBe(401);
  });

  test('requireOwnerOrAdmin lets the owner and an admin through and refuses another user with 403', async () => {
    const app = appWith(verifier, requireOwnerOrAdmin((req, user) => Number(req.params.userId) === user.userId));
    expect((await request(app).get('/r/5').set('authorization', user5)).status).toBe(200);
    expect((await request(app).get('/r/6').set('authorization', admin)).status).toBe(200);
    expect((await request(app).get('/r/6').set('authorization', user5)).status).toBe(403);
  });
});

describe('requireApiKey', () => {
  const app = express();
  app.post('/send', requireApiKey('s3cret-key'), (_req, res) => {
    res.json({ ok: true });
  });
  app.use((error: { status: number }, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    res.status(error.status).json({});
  });

  test('accepts the exact key and refuses a wrong, shorter, longer or missing one with 401', async () => {
    expect((await request(app).post('/send').set('x-api-key', 's3cret-key')).status).toBe(200);
    for (const key of ['s3cret-kez', 's', 's3cret-key-and-more', 'x'.repeat(10_000)]) {
      expect((await request(app).post('/send').set('x-api-key', key)).status).toBe(401);
    }
    expect((await request(app).post('/send')).status).toBe(401);
  });

  test('safeEqual never throws on a length mismatch', () => {
    expect(safeEqual('a', 'abc')).toBe(false);
    expect(safeEqual('', 'abc')).toBe(false);
    expect(safeEqual('abc', 'abc')).toBe(true);
  });

  test('an empty expected key refuses everything', async () => {
    const open = express();
    open.post('/send', requireApiKey(''), (_req, res) => {
      res.json({ ok: true });
    });
    open.use((_error: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
      res.status(401).end();
    });
    expect((await request(open).post('/send').set('x-api-key', '')).status).toBe(401);
  });
});

describe('loadKeyRing', () => {
  test('names the missing file and the settings to fix when a key is absent', () => {
    expect(() => loadKeyRing(dir, ['absent'])).toThrow(/absent\.public\.pem not found: set JWT_KEYS_DIR and JWT_KEY_IDS/);
    expect(() => loadKeyRing(dir, [])).toThrow('JWT_KEY_IDS lists no key id');
  });

  test('generateKeyPairFiles keeps an existing key pair', () => {
    expect(generateKeyPairFiles(dir, 'k1')).toBe(false);
  });
});

describe('verifierFromConfig', () => {
  test('reads the JWT variables (with their defaults) and accepts only tokens of the listed kids, issuer and audience, cached or not', () => {
    const config = z.object(jwtConfigShape).parse({ JWT_KEYS_DIR: dir, JWT_KEY_IDS: 'k2, k1' });
    expect(config).toEqual({ JWT_KEYS_DIR: dir, JWT_KEY_IDS: ['k2', 'k1'], JWT_ISSUER: 'academy', JWT_AUDIENCE: 'academy-api' });
    const good = createTokenSigner(ringK1, options).sign({ sub: '5', role: 'user' }, 60);
    const otherAudience = createTokenSigner(ringK1, { ...options, audience: 'elsewhere' }).sign({ sub: '6', role: 'user' }, 60);
    for (const cacheMs of [0, 30_000]) {
      const fromConfig = verifierFromConfig(config, cacheMs);
      expect(fromConfig.verify(good)?.sub).toBe('5');
      expect(fromConfig.verify(good)?.sub).toBe('5');
      expect(fromConfig.verify(otherAudience)).toBeNull();
    }
  });
});
