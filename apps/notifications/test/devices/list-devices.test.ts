// GET /api/v2/notifications/token: the caller's devices for the console's Settings (issue 33).
import { describe, expect, test } from '@jest/globals';
import request from 'supertest';
import { bearer } from '@academy/testing';
import { sql, useNotifications } from '../support.ts';

const carla = bearer({ sub: '31', role: 'user' });
const dani = bearer({ sub: '32', role: 'user' });

describe('GET /api/v2/notifications/token', () => {
  const service = useNotifications();
  const api = () => request(service().url);
  const register = (auth: Record<string, string>, deviceId: string, token: string, platform = 'android') =>
    api().post('/api/v2/notifications/token').set(auth).send({ deviceId, token, platform });

  test("lists the caller's devices only, most recently seen first, without their tokens; a removed one is gone", async () => {
    expect((await register(carla, 'old-phone', 'tok-carla-old')).status).toBe(200);
    expect((await register(carla, 'tablet', 'tok-carla-tablet', 'ios')).status).toBe(200);
    expect((await register(dani, 'dani-phone', 'tok-dani')).status).toBe(200);
    // Pinned times: the old phone last seen a month ago, the tablet yesterday.
    await sql(service(), `update device_tokens set created_at = '2026-03-01T10:00:00Z', updated_at = '2026-03-01T10:00:00Z', last_seen_at = '2026-03-20T10:00:00Z' where device_id = 'old-phone'`);
    await sql(service(), `update device_tokens set created_at = '2026-04-19T08:00:00Z', updated_at = '2026-04-19T08:00:00Z', last_seen_at = '2026-04-19T08:00:00Z' where device_id = 'tablet'`);

    const listed = await api().get('/api/v2/notifications/token').set(carla);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({
      success: true,
      data: [
        { deviceId: 'tablet', platform: 'ios', createdAt: '2026-04-19T08:00:00.000Z', updatedAt: '2026-04-19T08:00:00.000Z', lastSeenAt: '2026-04-19T08:00:00.000Z' },
        { deviceId: 'old-phone', platform: 'android', createdAt: '2026-03-01T10:00:00.000Z', updatedAt: '2026-03-01T10:00:00.000Z', lastSeenAt: '2026-03-20T10:00:00.000Z' },
      ],
    });
    expect(JSON.stringify(listed.body)).not.toContain('tok-');

    expect((await api().delete('/api/v2/notifications/token/old-phone').set(carla)).status).toBe(200);
    expect((await api().get('/api/v2/notifications/token').set(carla)).body.data.map((d: { deviceId: string }) => d.deviceId)).toEqual(['tablet']);
    // Another user's device cannot be removed through one's own list: "not found", and it stays.
    expect((await api().delete('/api/v2/notifications/token/dani-phone').set(carla)).status).toBe(404);
    expect((await api().get('/api/v2/notifications/token').set(dani)).body.data.map((d: { deviceId: string }) => d.deviceId)).toEqual(['dani-phone']);
  });

  test('a user with no device gets an empty list; no token is a 401', async () => {
    const none = await api().get('/api/v2/notifications/token').set(bearer({ sub: '33', role: 'user' }));
    expect(none.status).toBe(200);
    expect(none.body).toEqual({ success: true, data: [] });
    expect((await api().get('/api/v2/notifications/token')).status).toBe(401);
  });
});
