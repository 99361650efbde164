import { describe, expect, test } from '@jest/globals';
import request from 'supertest';
import { bearer, tokenFor } from '@academy/testing';
import { sql, useNotifications } from '../support.ts';

const ana = bearer({ sub: '11', role: 'user' });
const ben = bearer({ sub: '12', role: 'user' });

interface TokenRow {
  user_id: number;
  device_id: string;
  token: string;
  platform: string;
}

describe('device tokens', () => {
  const service = useNotifications();
  const tokensOf = (userId: number) =>
    sql<TokenRow>(service(), 'select user_id, device_id, token, platform from device_tokens where user_id = ? order by device_id', [userId]);
  const register = (auth: Record<string, string>, body: unknown) => request(service().url).post('/api/v2/notifications/token').set(auth).send(body as object);

  describe('POST /api/v2/notifications/token', () => {
    test('registers a device, then updates the same device instead of adding a row', async () => {
      const first = await register(ana, { deviceId: 'phone-a', token: 'tok-a-1', platform: 'android' });
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ success: true, message: 'Device token registered successfully', data: { deviceId: 'phone-a', platform: 'android' } });

      const second = await register(ana, { deviceId: 'phone-a', token: 'tok-a-2', platform: 'ios' });
      expect(second.status).toBe(200);
      // Other tests of this file register devices of this user too, in any order: this one looks at its device.
      expect((await tokensOf(11)).filter((row) => row.device_id === 'phone-a')).toEqual([{ user_id: 11, device_id: 'phone-a', token: 'tok-a-2', platform: 'ios' }]);
    });

    test('a body with fields it does not take (userId, __proto__, constructor) is a 400 naming them, and nothing is stored', async () => {
      const raw = '{"deviceId":"phone-x","token":"tok-x","platform":"ios","userId":99,"__proto__":{"admin":true},"constructor":{"prototype":{}}}';
      const refused = await request(service().url).post('/api/v2/notifications/token').set(ana).set('content-type', 'application/json').send(raw);
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ success: false, code: 'VALIDATION_ERROR' });
      for (const key of ['userId', '__proto__', 'constructor']) expect(refused.body.message).toContain(key);
      expect((await tokensOf(11)).filter((row) => row.device_id === 'phone-x')).toEqual([]);
      expect(await tokensOf(99)).toEqual([]);
    });

    test('a token registered by another user moves to the user who registers it now', async () => {
      await register(ana, { deviceId: 'shared-tablet', token: 'tok-shared', platform: 'android' });
      const res = await register(ben, { deviceId: 'tablet', token: 'tok-shared', platform: 'android' });
      expect(res.status).toBe(200);
      expect((await tokensOf(11)).map((row) => row.device_id)).not.toContain('shared-tablet');
      expect((await tokensOf(12)).filter((row) => row.token === 'tok-shared')).toEqual([{ user_id: 12, device_id: 'tablet', token: 'tok-shared', platform: 'android' }]);
    });

    test('20 users registering one token at once: every request succeeds and the token ends with exactly one of them', async () => {
      const users = Array.from({ length: 20 }, (_, i) => 51 + i);
      const answers = await Promise.all(users.map((user) => register(bearer({ sub: String(user), role: 'user' }), { deviceId: `tablet-${user}`, token: 'tok-contested', platform: 'ios' })));
      expect(answers.map((res) => res.status)).toEqual(users.map(() => 200));
      const holders = await sql<{ user_id: number }>(service(), `select user_id from device_tokens where token = 'tok-contested'`);
      expect(holders).toHaveLength(1);
      expect(users).toContain(holders[0].user_id);
    });

    test('one device registered with 10 tokens at once keeps one row, with one of them', async () => {
      const tokens = Array.from({ length: 10 }, (_, i) => `tok-race-${i}`);
      const answers = await Promise.all(tokens.map((token) => register(bearer({ sub: '14', role: 'user' }), { deviceId: 'racing-phone', token, platform: 'android' })));
      expect(answers.map((res) => res.status)).toEqual(tokens.map(() => 200));
      const rows = await tokensOf(14);
      expect(rows).toHaveLength(1);
      expect(tokens).toContain(rows[0].token);
    });

    test.each([
      ['without deviceId', { token: 't', platform: 'ios' }, 'deviceId'],
      ['without token', { deviceId: 'd', platform: 'ios' }, 'token'],
      ['with an empty token', { deviceId: 'd', token: '  ', platform: 'ios' }, 'token'],
      ['with a 5 KB token', { deviceId: 'd', token: 'x'.repeat(5 * 1024), platform: 'ios' }, 'token'],
      ['with an unknown platform', { deviceId: 'd', token: 't', platform: 'windows' }, 'platform'],
      ['with a NUL in the device id', { deviceId: 'd\u0000', token: 't', platform: 'ios' }, 'deviceId'],
    ])('%s: 400 in the notifications style, nothing stored', async (_name, body, field) => {
      const res = await register(bearer({ sub: '13', role: 'user' }), body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ success: false, code: 'VALIDATION_ERROR' });
      expect(res.body.message).toContain(field);
      expect(await tokensOf(13)).toEqual([]);
    });

    test('without a token, or with an expired one: 401 { success: false }', async () => {
      const none = await request(service().url).post('/api/v2/notifications/token').send({ deviceId: 'd', token: 't', platform: 'ios' });
      expect(none.status).toBe(401);
      expect(none.body).toMatchObject({ success: false, message: 'Unauthorized' });
      const expired = await request(service().url)
        .post('/api/v2/notifications/token')
        .set('authorization', `Bearer ${tokenFor({ sub: '13', role: 'user' }, -60)}`)
        .send({ deviceId: 'd', token: 't', platform: 'ios' });
      expect(expired.status).toBe(401);
      expect(expired.body).toMatchObject({ success: false, message: 'Unauthorized' });
      expect(await tokensOf(13)).toEqual([]);
    });
  });

  describe('DELETE /api/v2/notifications/token/:deviceId', () => {
    test('removes the device of the user: 200 with the spec body', async () => {
      await register(ana, { deviceId: 'old-phone', token: 'tok-old', platform: 'ios' });
      const res = await request(service().url).delete('/api/v2/notifications/token/old-phone').set(ana);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, message: 'Device token removed successfully' });
      expect((await tokensOf(11)).map((row) => row.device_id)).not.toContain('old-phone');
    });

    test("another user's device, or an unknown one, is 404 Device not found and stays", async () => {
      await register(ben, { deviceId: 'ben-phone', token: 'tok-ben', platform: 'android' });
      const foreign = await request(service().url).delete('/api/v2/notifications/token/ben-phone').set(ana);
      expect(foreign.status).toBe(404);
      expect(foreign.body).toMatchObject({ success: false, message: 'Device not found' });
      expect((await tokensOf(12)).map((row) => row.device_id)).toContain('ben-phone');

      const unknown = await request(service().url).delete('/api/v2/notifications/token/nothing-here').set(ana);
      expect(unknown.status).toBe(404);
      expect(unknown.body).toMatchObject({ success: false, message: 'Device not found' });
    });
  });
});
