import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import request from 'supertest';
import { generateKeyPairFiles, hashPassword } from '@academy/auth';
import { startService, type RunningService } from '@academy/service';
import { TEST_KEYS_DIR, TEST_KID, dropTestDatabase, forgedTokens, testConfig, tokenFor } from '@academy/testing';
import { academicService } from '../../src/service.ts';
import { useAcademic } from '../support.ts';
import { User } from '../../src/shared/entities/user.entity.ts';
import { RefreshToken } from '../../src/shared/entities/refresh-token.entity.ts';
import { findUser, hashRefreshToken, issueTokens, lockRefreshToken, revokeFamily } from '../../src/auth/auth.store.ts';
import type { AcademicContext } from '../../src/shared/academic-context.ts';
import { SettingsSchema, type Config } from '../../src/config.ts';

describe('academic /api/v2/auth', () => {
  const { service } = useAcademic();
  let teacherId: number;

  const login = (email: string, password: string) => request(service().url).post('/api/v2/auth/login').send({ email, password });

  beforeAll(async () => {
    const em = service().ctx.orm.em.fork();
    const passwordHash = await hashPassword('teacher-pass');
    const teacher = em.create(User, { email: 'teacher@academy.test', passwordHash, role: 'user', employeeId: 12 });
    em.create(User, { email: 'admin@academy.test', passwordHash: await hashPassword('admin-pass'), role: 'admin' });
    em.create(User, { email: 'gone@academy.test', passwordHash, role: 'user', active: false });
    await em.flush();
    teacherId = teacher.id;
  });

  describe('POST /login', () => {
    test('with the right password, returns an access token that /me accepts and a refresh token', async () => {
      const res = await login('Teacher@Academy.test', 'teacher-pass');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ tokenType: 'Bearer', expiresIn: 900, user: { id: teacherId, email: 'teacher@academy.test', role: 'user', employeeId: 12, studentId: null } });
      expect(res.body.refreshToken).toMatch(/^[\w-]{40,}$/);
      const me = await request(service().url).get('/api/v2/auth/me').set('authorization', `Bearer ${res.body.accessToken}`);
      expect(me.status).toBe(200);
      expect(me.body).toEqual({ user: { id: teacherId, email: 'teacher@academy.test', role: 'user', employeeId: 12, studentId: null, locale: null } });
    });

    test('a wrong password, an unknown e-mail and a deactivated user get the same 401 in comparable time', async () => {
      const timed = async (email: string, password: string) => {
        const started = performance.now();
        const res = await login(email, password);
        return { status: res.status, body: { ...res.body, requestId: undefined }, ms: performance.now() - started };
      };
      // Six users with a real hash, one wrong password each (five in a row on one e-mail would be blocked).
      const em = service().ctx.orm.em.fork();
      const passwordHash = await hashPassword('right-pass');
      for (let i = 0; i < 6; i++) em.create(User, { email: `timed${i}@academy.test`, passwordHash, role: 'user' });
      await em.flush();
      // Interleaved, six of each: the fastest of each kind is its cost without the noise of other test files running beside it.
      const wrong: Awaited<ReturnType<typeof timed>>[] = [];
      const unknown: Awaited<ReturnType<typeof timed>>[] = [];
      for (let i = 0; i < 6; i++) {
        wrong.push(await timed(`timed${i}@academy.test`, 'nope'));
        unknown.push(await timed(`nobody${i}@academy.test`, 'nope'));
      }
      const inactive = await timed('gone@academy.test', 'teacher-pass');
      for (const attempt of [...wrong, ...unknown, inactive]) {
        expect(attempt.status).toBe(401);
        expect(attempt.body).toEqual({ code: 'INVALID_CREDENTIALS', message: 'Invalid email or password', requestId: undefined });
      }
      // Both paths run one scrypt verification; without the dummy hash the unknown e-mail would answer in ~1 ms.
      const fastest = (list: { ms: number }[]) => Math.min(...list.map((a) => a.ms));
      expect(fastest(unknown)).toBeGreaterThan(fastest(wrong) * 0.4);
    });

    test('a body without e-mail or password is a 400 naming the fields, never a 500', async () => {
      const res = await request(service().url).post('/api/v2/auth/login').send({ email: 'not-an-email' });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
      expect(res.body.message).toMatch(/email/);
      expect(res.body.message).toMatch(/password/);
      expect((await request(service().url).post('/api/v2/auth/login').set('content-type', 'application/json').send('{bad json')).status).toBe(400);
    });
  });

  describe('POST /refresh', () => {
    test('rotates: the new refresh token works once, the old one is refused and revokes the whole session', async () => {
      const first = (await login('teacher@academy.test', 'teacher-pass')).body;
      const second = await request(service().url).post('/api/v2/auth/refresh').send({ refreshToken: first.refreshToken });
      expect(second.status).toBe(200);
      expect(second.body.refreshToken).not.toBe(first.refreshToken);
      expect((await request(service().url).get('/api/v2/auth/me').set('authorization', `Bearer ${second.body.accessToken}`)).status).toBe(200);

      const reuse = await request(service().url).post('/api/v2/auth/refresh').send({ refreshToken: first.refreshToken });
      expect(reuse.status).toBe(401);
      expect(reuse.body.code).toBe('REFRESH_TOKEN_REUSED');

      const successor = await request(service().url).post('/api/v2/auth/refresh').send({ refreshToken: second.body.refreshToken });
      expect(successor.status).toBe(401);
      const em = service().ctx.orm.em.fork();
      const { familyId } = await em.findOneOrFail(RefreshToken, { tokenHash: hashRefreshToken(second.body.refreshToken) });
      const family = await em.find(RefreshToken, { familyId });
      expect(family).toHaveLength(2);
      expect(family.every((row) => row.revokedAt !== null)).toBe(true);
    });

    test('two refreshes racing with one token: exactly one succeeds', async () => {
      const { refreshToken } = (await login('admin@academy.test', 'admin-pass')).body;
      const results = await Promise.all([1, 2, 3].map(() => request(service().url).post('/api/v2/auth/refresh').send({ refreshToken })));
      expect(results.map((r) => r.status).sort()).toEqual([200, 401, 401]);
    });

    test('an expired refresh token is refused', async () => {
      const { refreshToken } = (await login('teacher@academy.test', 'teacher-pass')).body;
      await service().ctx.orm.em.fork().nativeUpdate(RefreshToken, { tokenHash: hashRefreshToken(refreshToken) }, { expiresAt: new Date(Date.now() - 1000) });
      const res = await request(service().url).post('/api/v2/auth/refresh').send({ refreshToken });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('INVALID_REFRESH_TOKEN');
    });

    test('an unknown refresh token is a 401 and an empty body a 400', async () => {
      expect((await request(service().url).post('/api/v2/auth/refresh').send({ refreshToken: 'made-up' })).body.code).toBe('INVALID_REFRESH_TOKEN');
      expect((await request(service().url).post('/api/v2/auth/refresh').send({})).status).toBe(400);
    });
  });

  describe('POST /logout', () => {
    test('while a refresh of the same token is committing, the logout also revokes the token that refresh issues: the session ends', async () => {
      const { refreshToken } = (await login('teacher@academy.test', 'teacher-pass')).body;
      const deps = service().deps as AcademicContext;
      let commitRefresh!: () => void;
      const refreshMayCommit = new Promise<void>((resolve) => (commitRefresh = resolve));
      let spent!: () => void;
      const refreshHasSpent = new Promise<void>((resolve) => (spent = resolve));
      // A refresh as refreshSession runs it (the token's row locked, spent, a successor issued), held before its commit.
      const refreshing = deps.orm.em.fork().transactional(async (tx) => {
        const stored = (await lockRefreshToken(tx, hashRefreshToken(refreshToken)))!;
        stored.usedAt = new Date();
        const pair = issueTokens(tx, deps.tokens, (await findUser(tx, stored.user))!, stored.familyId);
        await tx.flush();
        spent();
        await refreshMayCommit;
        return pair;
      });
      await refreshHasSpent;
      const loggingOut = request(service().url).post('/api/v2/auth/logout').send({ refreshToken }).then((res) => res);
      // The logout waits for the refresh's commit, or (unserialized) revokes what it sees at once.
      await Promise.race([loggingOut, new Promise((resolve) => setTimeout(resolve, 300))]);
      commitRefresh();
      const successor = await refreshing;
      expect((await loggingOut).status).toBe(204);
      expect((await request(service().url).post('/api/v2/auth/refresh').send({ refreshToken: successor.refreshToken })).status).toBe(401);
    });

    test('racing a refresh of an already-used token of its session, the logout waits for it: no deadlock, both finish and every token of the session is revoked', async () => {
      const spentToken = (await login('teacher@academy.test', 'teacher-pass')).body.refreshToken as string;
      const live = (await request(service().url).post('/api/v2/auth/refresh').send({ refreshToken: spentToken })).body.refreshToken as string;
      const deps = service().deps as AcademicContext;
      let mayRevoke!: () => void;
      const revokeAllowed = new Promise<void>((resolve) => (mayRevoke = resolve));
      let locked!: () => void;
      const spentTokenLocked = new Promise<void>((resolve) => (locked = resolve));
      // A refresh of the spent token as refreshSession runs it (the token locked, found spent), held before it revokes the session.
      const refreshing = deps.orm.em.fork().transactional(async (tx) => {
        const stored = (await lockRefreshToken(tx, hashRefreshToken(spentToken)))!;
        expect(stored.usedAt).not.toBeNull();
        locked();
        await revokeAllowed;
        await revokeFamily(tx, stored.familyId, new Date());
        return stored.familyId;
      });
      await spentTokenLocked;
      const loggingOut = request(service().url).post('/api/v2/auth/logout').send({ refreshToken: live }).then((res) => res);
      // The logout waits for the session's lock; in the other order it would lock the live token and wait for the spent one.
      await Promise.race([loggingOut, new Promise((resolve) => setTimeout(resolve, 300))]);
      mayRevoke();
      const familyId = await refreshing;
      expect((await loggingOut).status).toBe(204);
      expect(await service().ctx.orm.em.fork().count(RefreshToken, { familyId, revokedAt: null })).toBe(0);
    });

    test('racing a refresh of an already-used token, ending every session of its user waits for it: no deadlock, both finish and every token of the user is revoked', async () => {
      const em = service().ctx.orm.em.fork();
      const user = em.create(User, { email: 'raced@academy.test', passwordHash: await hashPassword('raced-pass'), role: 'user' });
      await em.flush();
      const spentToken = (await login('raced@academy.test', 'raced-pass')).body.refreshToken as string;
      expect((await request(service().url).post('/api/v2/auth/refresh').send({ refreshToken: spentToken })).status).toBe(200);
      const deps = service().deps as AcademicContext;
      let mayRevoke!: () => void;
      const revokeAllowed = new Promise<void>((resolve) => (mayRevoke = resolve));
      let locked!: () => void;
      const spentTokenLocked = new Promise<void>((resolve) => (locked = resolve));
      // A refresh of the spent token as refreshSession runs it (the token locked, found spent), held before it revokes the session.
      const refreshing = deps.orm.em.fork().transactional(async (tx) => {
        const stored = (await lockRefreshToken(tx, hashRefreshToken(spentToken)))!;
        locked();
        await revokeAllowed;
        await revokeFamily(tx, stored.familyId, new Date());
      });
      await spentTokenLocked;
      const ending = deps.sessions.endUserSessions(deps.orm.em.fork(), user.id);
      // Ending waits for the session's lock; locking the live token first, it would wait for the spent one the refresh holds.
      await Promise.race([ending, new Promise((resolve) => setTimeout(resolve, 300))]);
      mayRevoke();
      await refreshing;
      await ending;
      expect(await service().ctx.orm.em.fork().count(RefreshToken, { user: user.id, revokedAt: null })).toBe(0);
    });

    test('while a refresh is committing, ending every session of its user (a password change) also revokes the token that refresh issues', async () => {
      const em = service().ctx.orm.em.fork();
      const user = em.create(User, { email: 'renewed@academy.test', passwordHash: await hashPassword('renewed-pass'), role: 'user' });
      await em.flush();
      const { refreshToken } = (await login('renewed@academy.test', 'renewed-pass')).body;
      const deps = service().deps as AcademicContext;
      let commitRefresh!: () => void;
      const refreshMayCommit = new Promise<void>((resolve) => (commitRefresh = resolve));
      let spent!: () => void;
      const refreshHasSpent = new Promise<void>((resolve) => (spent = resolve));
      const refreshing = deps.orm.em.fork().transactional(async (tx) => {
        const stored = (await lockRefreshToken(tx, hashRefreshToken(refreshToken)))!;
        stored.usedAt = new Date();
        const pair = issueTokens(tx, deps.tokens, (await findUser(tx, stored.user))!, stored.familyId);
        await tx.flush();
        spent();
        await refreshMayCommit;
        return pair;
      });
      await refreshHasSpent;
      const ending = deps.sessions.endUserSessions(deps.orm.em.fork(), user.id);
      await Promise.race([ending, new Promise((resolve) => setTimeout(resolve, 300))]);
      commitRefresh();
      const successor = await refreshing;
      await ending;
      expect((await request(service().url).post('/api/v2/auth/refresh').send({ refreshToken: successor.refreshToken })).status).toBe(401);
    });

    test('revokes the session: its refresh token no longer refreshes; a second logout is still 204', async () => {
      const { refreshToken } = (await login('teacher@academy.test', 'teacher-pass')).body;
      expect((await request(service().url).post('/api/v2/auth/logout').send({ refreshToken })).status).toBe(204);
      expect((await request(service().url).post('/api/v2/auth/refresh').send({ refreshToken })).status).toBe(401);
      expect((await request(service().url).post('/api/v2/auth/logout').send({ refreshToken })).status).toBe(204);
    });
  });

  describe('GET /me', () => {
    test.each(Object.entries(forgedTokens()))(
      'a token that is %s is a 401 UNAUTHORIZED',
      async (_flaw, token) => {
        const res = await request(service().url).get('/api/v2/auth/me').set('authorization', `Bearer ${token}`);
        expect(res.status).toBe(401);
        expect(res.body).toMatchObject({ code: 'UNAUTHORIZED', message: 'Unauthorized' });
      },
    );

    test('without a token, 401', async () => {
      expect((await request(service().url).get('/api/v2/auth/me')).status).toBe(401);
    });
  });
});

describe('academic during a key rotation', () => {
  let service: RunningService<Config>;

  beforeAll(async () => {
    generateKeyPairFiles(TEST_KEYS_DIR, 'test-rotation-2');
    service = await startService(academicService, { ...(await testConfig('academic_rotation', SettingsSchema)), JWT_KEY_IDS: ['test-rotation-2', TEST_KID] });
    const em = service.ctx.orm.em.fork();
    em.create(User, { email: 'rot@academy.test', passwordHash: await hashPassword('rot-pass'), role: 'admin' });
    await em.flush();
  });
  afterAll(async () => {
    await service.stop();
    await dropTestDatabase(service.ctx.config.DATABASE_URL);
  });

  test('signs with the first listed key and still accepts tokens of the second', async () => {
    const login = await request(service.url).post('/api/v2/auth/login').send({ email: 'rot@academy.test', password: 'rot-pass' });
    const header = JSON.parse(Buffer.from(login.body.accessToken.split('.')[0], 'base64url').toString());
    expect(header).toMatchObject({ alg: 'ES256', kid: 'test-rotation-2' });
    const userId = login.body.user.id as number;
    expect((await request(service.url).get('/api/v2/auth/me').set('authorization', `Bearer ${login.body.accessToken}`)).status).toBe(200);
    const oldKeyToken = tokenFor({ sub: String(userId), role: 'admin' });
    expect((await request(service.url).get('/api/v2/auth/me').set('authorization', `Bearer ${oldKeyToken}`)).status).toBe(200);
  });
});
