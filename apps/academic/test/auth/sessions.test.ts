import { beforeAll, describe, expect, test } from '@jest/globals';
import request from 'supertest';
import jwt from 'jsonwebtoken';
import { hashPassword } from '@academy/auth';
import { User } from '../../src/shared/entities/user.entity.ts';
import { RefreshToken } from '../../src/shared/entities/refresh-token.entity.ts';
import { admin, em, useAcademic } from '../support.ts';

/**
 * Polls until `probe` answers `status` (revocations are honoured within the verifier's 2 s check interval;
 * 10 s allowed, because under test:clocks' load at 2 lanes a 4 s wait ran out once before the check ran).
 */
async function eventually(probe: () => Promise<number>, status: number, withinMs = 10_000): Promise<number> {
  const deadline = Date.now() + withinMs;
  let last = await probe();
  while (last !== status && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    last = await probe();
  }
  return last;
}

describe('sessions end for real', () => {
  const { service } = useAcademic();
  const ids: Record<string, number> = {};
  const login = async (email: string) => {
    const res = await request(service().url).post('/api/v2/auth/login').set('x-forwarded-for', '10.40.0.1').send({ email, password: 'pass-1234' });
    expect(res.status).toBe(200);
    return res.body as { accessToken: string; refreshToken: string };
  };
  const me = (accessToken: string) => () =>
    request(service().url)
      .get('/api/v2/auth/me')
      .set('authorization', `Bearer ${accessToken}`)
      .then((res) => res.status);

  beforeAll(async () => {
    const fork = em(service());
    const passwordHash = await hashPassword('pass-1234');
    for (const name of ['logout', 'reuse', 'deactivated', 'demoted', 'other']) {
      const user = fork.create(User, { email: `${name}@academy.test`, passwordHash, role: name === 'demoted' ? 'admin' : 'user' });
      await fork.flush();
      ids[name] = user.id;
    }
  });

  test('the access token carries the session id: its refresh-token family', async () => {
    const pair = await login('other@academy.test');
    const { sid } = jwt.decode(pair.accessToken) as { sid: string };
    const family = await em(service()).findOneOrFail(RefreshToken, { user: ids.other }, { orderBy: { id: 'desc' } });
    expect(sid).toBe(family.familyId);
  });

  test('after logout the session’s access token is refused; another session of the user goes on', async () => {
    const pair = await login('logout@academy.test');
    const other = await login('logout@academy.test');
    expect(await me(pair.accessToken)()).toBe(200);
    expect((await request(service().url).post('/api/v2/auth/logout').send({ refreshToken: pair.refreshToken })).status).toBe(204);
    expect(await eventually(me(pair.accessToken), 401)).toBe(401);
    expect(await me(other.accessToken)()).toBe(200);
  });

  test('a reused refresh token revokes the family: the access tokens of that session are refused', async () => {
    const first = await login('reuse@academy.test');
    const second = (await request(service().url).post('/api/v2/auth/refresh').send({ refreshToken: first.refreshToken })).body as { accessToken: string };
    expect(await me(second.accessToken)()).toBe(200);
    const reuse = await request(service().url).post('/api/v2/auth/refresh').send({ refreshToken: first.refreshToken });
    expect(reuse.body.code).toBe('REFRESH_TOKEN_REUSED');
    expect(await eventually(me(second.accessToken), 401)).toBe(401);
    // The session is ended for every token of it, within the revocation check when the announcement is missed (README: within 2 s).
    expect(await eventually(me(first.accessToken), 401)).toBe(401);
  });

  test('a deactivated user’s access tokens are refused', async () => {
    const pair = await login('deactivated@academy.test');
    expect(await me(pair.accessToken)()).toBe(200);
    expect((await request(service().url).delete(`/api/v2/users/${ids.deactivated}`).set(admin)).status).toBe(200);
    expect(await eventually(me(pair.accessToken), 401)).toBe(401);
  });

  test('a user whose role changes must log in again: the old token (with the old role) and refresh token are refused', async () => {
    const pair = await login('demoted@academy.test');
    expect((await request(service().url).get('/api/v2/users').set('authorization', `Bearer ${pair.accessToken}`)).status).toBe(200);
    expect((await request(service().url).patch(`/api/v2/users/${ids.demoted}`).set(admin).send({ role: 'user' })).status).toBe(200);
    const usersList = () =>
      request(service().url)
        .get('/api/v2/users')
        .set('authorization', `Bearer ${pair.accessToken}`)
        .then((res) => res.status);
    expect(await eventually(usersList, 401)).toBe(401);
    expect((await request(service().url).post('/api/v2/auth/refresh').send({ refreshToken: pair.refreshToken })).status).toBe(401);
    const fresh = await login('demoted@academy.test');
    expect((await request(service().url).get('/api/v2/users').set('authorization', `Bearer ${fresh.accessToken}`)).status).toBe(403);
  });
});
