import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import request from 'supertest';
import { hashPassword } from '@academy/auth';
import { startService, type RunningService } from '@academy/service';
import { dropTestDatabase, testConfig } from '@academy/testing';
// The real academic service in-process behind the gateway, as in gateway.test.ts.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { academicService } from '../../academic/src/service.ts';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { User } from '../../academic/src/shared/entities/user.entity.ts';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { SettingsSchema } from '../../academic/src/config.ts';
import { startGateway, type RunningGateway } from '../src/gateway.ts';
import { gatewayConfig } from './helpers.ts';

describe('logins and sessions through the gateway (one school, one public address)', () => {
  let academic: RunningService;
  let gateway: RunningGateway;
  const login = (email: string, password: string) => request(gateway.url).post('/api/v2/auth/login').send({ email, password });

  beforeAll(async () => {
    academic = await startService(academicService, await testConfig('gateway_logins', SettingsSchema));
    const em = academic.ctx.orm.em.fork();
    const passwordHash = await hashPassword('right-pass');
    for (let i = 1; i <= 31; i++) em.create(User, { email: `teacher${i}@school.test`, passwordHash, role: 'user' });
    await em.flush();
    gateway = await startGateway(gatewayConfig({ ACADEMIC_URL: academic.url }));
  });
  afterAll(async () => {
    await gateway.stop();
    await academic.stop();
    await dropTestDatabase(academic.ctx.config.DATABASE_URL);
  });

  test('30 different users log in from one address within a minute: all succeed (successes are not login-limited)', async () => {
    const statuses = [];
    for (let i = 1; i <= 30; i++) statuses.push((await login(`teacher${i}@school.test`, 'right-pass')).status);
    expect(statuses).toEqual(Array(30).fill(200));
  });

  test('6 wrong passwords block that account from that address (429 at the 6th) and not another account', async () => {
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await login('teacher31@school.test', 'wrong')).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    const blocked = await login('teacher31@school.test', 'right-pass');
    expect(blocked.status).toBe(429);
    expect(blocked.headers['retry-after']).toBeDefined();
    expect((await login('teacher1@school.test', 'right-pass')).status).toBe(200);
  });

  test('a well-formed client x-request-id comes back from the service through the gateway, on success and on error', async () => {
    const id = 'client-7f3a9c.2026-11-23:42';
    const ok = await request(gateway.url).post('/api/v2/auth/login').set('x-request-id', id).send({ email: 'teacher3@school.test', password: 'right-pass' });
    expect(ok.status).toBe(200);
    expect(ok.headers['x-request-id']).toBe(id);
    const refused = await request(gateway.url).post('/api/v2/auth/login').set('x-request-id', id).send({ email: 'teacher3@school.test' });
    expect(refused.status).toBe(400);
    expect(refused.headers['x-request-id']).toBe(id);
    expect(refused.body.requestId).toBe(id);
  });

  test('after logout the access token is refused at the gateway within seconds', async () => {
    const pair = (await login('teacher2@school.test', 'right-pass')).body as { accessToken: string; refreshToken: string };
    const me = () => request(gateway.url).get('/api/v2/auth/me').set('authorization', `Bearer ${pair.accessToken}`);
    expect((await me()).status).toBe(200);
    expect((await request(gateway.url).post('/api/v2/auth/logout').send({ refreshToken: pair.refreshToken })).status).toBe(204);
    const started = Date.now();
    let status = (await me()).status;
    while (status !== 401 && Date.now() - started < 4000) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      status = (await me()).status;
    }
    expect(status).toBe(401);
    expect(Date.now() - started).toBeLessThan(3000);
  });
});
