import { beforeAll, describe, expect, test } from '@jest/globals';
import request from 'supertest';
import { hashPassword } from '@academy/auth';
import { useAcademic } from '../support.ts';
import { User } from '../../src/shared/entities/user.entity.ts';

describe('PATCH /api/v2/auth/me: the language of my notifications', () => {
  const { service } = useAcademic();
  let token: string;
  let userId: number;
  const patch = (body: unknown) => request(service().url).patch('/api/v2/auth/me').set('authorization', `Bearer ${token}`).send(body as object);
  const storedLocale = async () => (await service().ctx.orm.em.fork().findOneOrFail(User, { id: userId })).locale;

  /** A login of its own for each test (they run in any order), never changed before. */
  const newLogin = async (email: string) => {
    const em = service().ctx.orm.em.fork();
    const user = em.create(User, { email, passwordHash: await hashPassword('lang-pass'), role: 'user', employeeId: 40 });
    await em.flush();
    userId = user.id;
    token = (await request(service().url).post('/api/v2/auth/login').send({ email, password: 'lang-pass' })).body.accessToken;
  };

  beforeAll(() => newLogin('lang@academy.test'));

  test('a new login has none (the academy’s); choosing en is stored and shown by /me; null goes back', async () => {
    await newLogin('lang-new@academy.test');
    const before = await request(service().url).get('/api/v2/auth/me').set('authorization', `Bearer ${token}`);
    expect(before.body.user.locale).toBeNull();
    const changed = await patch({ locale: 'en' });
    expect(changed.status).toBe(200);
    expect(changed.body.user).toMatchObject({ id: userId, locale: 'en' });
    expect((await request(service().url).get('/api/v2/auth/me').set('authorization', `Bearer ${token}`)).body.user.locale).toBe('en');
    expect(await storedLocale()).toBe('en');
    expect((await patch({ locale: null })).body.user.locale).toBeNull();
    expect(await storedLocale()).toBeNull();
  });

  test.each([
    ['a locale outside the list', { locale: 'fr' }, 'locale'],
    ['a locale of another type', { locale: 7 }, 'locale'],
    ['no locale', {}, 'locale'],
    ['a field it does not take', { locale: 'en', role: 'admin' }, 'role'],
  ])('%s: 400 naming the field, nothing changed', async (_case, body, field) => {
    await patch({ locale: 'es' });
    const res = await patch(body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    expect(JSON.stringify(res.body)).toContain(field);
    expect(await storedLocale()).toBe('es');
  });

  test('without a token: 401', async () => {
    expect((await request(service().url).patch('/api/v2/auth/me').send({ locale: 'en' })).status).toBe(401);
  });
});
