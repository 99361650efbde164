import { beforeAll, describe, expect, test } from '@jest/globals';
import request from 'supertest';
import { hashPassword } from '@academy/auth';
import { User } from '../../src/shared/entities/user.entity.ts';
import { em, useAcademic } from '../support.ts';

// Requests come from loopback, so academic reads the client address from X-Forwarded-For, as the gateway sends it.
describe('login protection (rate-limiter-flexible login pattern)', () => {
  const { service } = useAcademic();
  const login = (email: string, password: string, ip: string) =>
    request(service().url).post('/api/v2/auth/login').set('x-forwarded-for', ip).send({ email, password });

  beforeAll(async () => {
    const fork = em(service());
    const passwordHash = await hashPassword('right-pass');
    for (let i = 1; i <= 30; i++) fork.create(User, { email: `staff${i}@school.test`, passwordHash, role: 'user' });
    await fork.flush();
  });

  test('30 different users log in from one IP within a minute: all succeed', async () => {
    const statuses = [];
    for (let i = 1; i <= 30; i++) statuses.push((await login(`staff${i}@school.test`, 'right-pass', '10.30.0.1')).status);
    expect(statuses).toEqual(Array(30).fill(200));
  });

  test('6 wrong passwords block that account from that IP, not from another IP, and not another account from that IP', async () => {
    const wrong = [];
    for (let i = 0; i < 6; i++) wrong.push((await login('staff1@school.test', 'wrong-pass', '10.30.0.2')).status);
    expect(wrong).toEqual([401, 401, 401, 401, 401, 429]);
    const blocked = await login('staff1@school.test', 'right-pass', '10.30.0.2');
    expect(blocked.status).toBe(429);
    expect(blocked.body).toMatchObject({ code: 'TOO_MANY_LOGIN_ATTEMPTS' });
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(60);
    expect(Number(blocked.headers['retry-after'])).toBeLessThanOrEqual(15 * 60);
    expect((await login('staff1@school.test', 'right-pass', '10.30.0.3')).status).toBe(200);
    expect((await login('staff2@school.test', 'right-pass', '10.30.0.2')).status).toBe(200);
  });

  test('an unknown e-mail is blocked the same way as a known one (the block reveals nothing)', async () => {
    const statuses = [];
    for (let i = 0; i < 7; i++) statuses.push((await login('nobody@school.test', 'wrong-pass', '10.30.0.4')).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
  });

  test('a success clears the consecutive failures of that (e-mail, IP)', async () => {
    const statuses = [];
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 4; i++) statuses.push((await login('staff3@school.test', 'wrong-pass', '10.30.0.5')).status);
      statuses.push((await login('staff3@school.test', 'right-pass', '10.30.0.5')).status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 200, 401, 401, 401, 401, 200]);
  });

  test('a password spray over 100 e-mails from one IP is blocked, for every account, and not for another IP', async () => {
    const statuses: number[] = [];
    for (let batch = 0; batch < 10; batch++) {
      const sent = Array.from({ length: 10 }, (_, i) => login(`sprayed${batch * 10 + i}@school.test`, 'Summer2026!', '10.30.0.6').then((res) => res.status));
      statuses.push(...(await Promise.all(sent)));
    }
    expect(statuses.filter((status) => status === 401)).toHaveLength(100);
    const next = await login('sprayed100@school.test', 'Summer2026!', '10.30.0.6');
    expect(next.status).toBe(429);
    expect(Number(next.headers['retry-after'])).toBeGreaterThan(3600);
    expect((await login('staff4@school.test', 'right-pass', '10.30.0.6')).status).toBe(429);
    expect((await login('staff4@school.test', 'right-pass', '10.30.0.7')).status).toBe(200);
  }, 90_000); // 100 scrypt verifications
});
