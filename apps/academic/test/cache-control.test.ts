import { describe, expect, test } from '@jest/globals';
import request from 'supertest';
import { admin, useAcademic } from './support.ts';

describe('Cache-Control of academic answers', () => {
  const { service } = useAcademic();

  test('an authenticated answer (GET /api/v2/school-courses) is no-store, and so is every answer of the auth routes (tokens)', async () => {
    const courses = await request(service().url).get('/api/v2/school-courses').set(admin);
    expect([courses.status, courses.headers['cache-control']]).toEqual([200, 'no-store']);
    const login = await request(service().url).post('/api/v2/auth/login').send({ email: 'nobody@academy.test', password: 'wrong-password' });
    expect([login.status, login.headers['cache-control']]).toEqual([401, 'no-store']);
  });

  test('an answer nobody signed in for (/healthz) is not marked', async () => {
    expect((await request(service().url).get('/healthz')).headers['cache-control']).toBeUndefined();
  });
});
